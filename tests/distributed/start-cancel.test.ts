import { CreateBucketCommand, DeleteBucketCommand } from '@aws-sdk/client-s3';
import { createTestDatabase, type TestDatabase } from '@countinghouse/kit/testing';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StartCancelled, startDistributed } from '../../scripts/distributed.js';
import { s3ClientOf, testInfra } from '../e2e/distributed-server.js';
import { freePort, repoRoot } from '../processes.js';

// A Ctrl-C while the distributed product is still starting (issue 19): what was started so far stops
// before the launcher exits, the servers and the infrastructure alike.

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'ch-start-cancel-'));
  // (infra/postgres.sh runs the server as `postgres` when we are root: it must reach the folder)
  chmodSync(d, 0o755);
  dirs.push(d);
  return d;
};

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('a start cancelled half-way', () => {
  let db: TestDatabase | null = null;
  afterAll(async () => {
    await db?.drop();
  });

  it('startDistributed, aborted once its first processes run: every process it spawned is gone when it rejects', async () => {
    db = await createTestDatabase();
    const bucket = `cancel-${Date.now()}`;
    const base = testInfra(bucket);
    const s3 = s3ClientOf(base.s3);
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    const dataDir = tempDir();
    const ac = new AbortController();
    const seen = new Set<string>();
    const started = startDistributed({
      infra: { ...base, databaseUrl: db.url },
      kafkaNamespace: `cancel-${Date.now()}.`,
      signal: ac.signal,
      onOutput: (name) => {
        seen.add(name);
        ac.abort();
      },
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'test',
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
        ADMIN_USERNAME: 'cancel.admin',
        ADMIN_PASSWORD: 'cancel-admin-secret-1',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        REPLICAS: '2',
      },
    });
    try {
      await expect(started).rejects.toBeInstanceOf(StartCancelled);
    } finally {
      await s3.send(new DeleteBucketCommand({ Bucket: bucket })).catch(() => {});
      s3.destroy();
    }
    expect(seen.size).toBeGreaterThan(0);
    const listed = JSON.parse(readFileSync(join(dataDir, 'processes.json'), 'utf8')) as { processes: Array<{ name: string; pid: number }> };
    // the first wave (one process of every service) was running
    expect(listed.processes.length).toBeGreaterThanOrEqual(10);
    const left = listed.processes.filter((p) => p.pid > 0 && alive(p.pid));
    expect(left).toEqual([]);
  });

  it('npm run start:distributed, Ctrl-C while the infrastructure starts: it stops what it started, then exits', async () => {
    const dataDir = tempDir();
    const runDir = join(dataDir, 'infra');
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start-distributed.ts'], {
      cwd: repoRoot,
      // (VITEST and VITEST_POOL_ID: its ports come from this worker's slice, scripts/distributed/ports.ts)
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        VITEST: process.env.VITEST,
        VITEST_POOL_ID: process.env.VITEST_POOL_ID,
        DATA_DIR: dataDir,
        PORT: String(await freePort()),
        SEED_DEMO: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const interrupted = new Promise<void>((r) => {
      const onData = (d: Buffer) => {
        out += d.toString();
        // PostgreSQL is up and Redis on its way: interrupt now, as a person pressing Ctrl-C would
        if (out.includes('starting redis')) {
          child.kill('SIGINT');
          r();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
    });
    await Promise.race([interrupted, exited]);
    const code = await exited;
    expect(out).toContain('starting redis');
    expect(out).toContain('stopped.');
    expect(code).toBe(0);
    expect(out).not.toContain('is running');
    // nothing of it left running: neither PostgreSQL (started) nor Redis (being started when interrupted)
    // (status reads the pid files in the run folder: 3 is "not running")
    for (const script of ['postgres.sh', 'redis.sh']) {
      const r = spawnSync('bash', [join(repoRoot, 'infra', script), 'status'], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, INFRA_RUN_DIR: runDir },
        encoding: 'utf8',
      });
      expect(r.status, `${script} status: ${r.stdout}${r.stderr}`).toBe(3);
    }
    expect(existsSync(join(runDir, 'postgres'))).toBe(true);
  });

  it('a demo seed that would be refused (NODE_ENV=production) stops the start before anything runs', async () => {
    const dataDir = tempDir();
    await expect(
      startDistributed({
        env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: String(await freePort()), NODE_ENV: 'production' },
      }),
    ).rejects.toThrow('The demo practice is not seeded when NODE_ENV=production');
    expect(existsSync(join(dataDir, 'infra', 'postgres'))).toBe(false); // no server was started
  });
});
