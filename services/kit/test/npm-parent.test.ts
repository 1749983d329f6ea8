import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { stopWhenNpmIsGone } from '../src/index.js';

// `npm start` stopped with a SIGTERM to npm's own pid: npm 11 exits without passing the signal on, and
// the server it ran kept running, orphaned, holding its port (found trying the README's
// `npm run start:distributed`). closeOnSignals (every service, the all-in-one server) and the distributed
// launcher stop once npm is gone.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('stopWhenNpmIsGone', () => {
  it('stops once the parent changes, once, when npm ran the process', async () => {
    let parent = 100;
    let stops = 0;
    stopWhenNpmIsGone(() => stops++, { env: { npm_lifecycle_event: 'start' }, intervalMs: 5, parentPid: () => parent });
    await sleep(40);
    expect(stops).toBe(0);
    parent = 1;
    await sleep(40);
    expect(stops).toBe(1);
    parent = 2;
    await sleep(40);
    expect(stops).toBe(1);
  });

  it('leaves a process npm did not run alone (node itself, a container, nohup): its parent leaving is no request to stop', async () => {
    let parent = 100;
    let stops = 0;
    stopWhenNpmIsGone(() => stops++, { env: {}, intervalMs: 5, parentPid: () => parent });
    parent = 1;
    await sleep(40);
    expect(stops).toBe(0);
  });

  it('cancelled: never stops', async () => {
    let parent = 100;
    let stops = 0;
    const cancel = stopWhenNpmIsGone(() => stops++, { env: { npm_lifecycle_event: 'start' }, intervalMs: 5, parentPid: () => parent });
    cancel();
    parent = 1;
    await sleep(40);
    expect(stops).toBe(0);
  });
});

describe('a server run by `npm run`, npm sent SIGTERM', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kit-npm-parent-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('closes itself (closeOnSignals) instead of running on orphaned', async () => {
    const resolve = createRequire(import.meta.url).resolve;
    const tsx = pathToFileURL(resolve('tsx')).href;
    const pino = pathToFileURL(resolve('pino')).href;
    const kit = pathToFileURL(join(import.meta.dirname, '..', 'src', 'index.ts')).href;
    writeFileSync(
      join(dir, 'server.ts'),
      `import pino from ${JSON.stringify(pino)};
import { closeOnSignals, createApp } from ${JSON.stringify(kit)};
const app = createApp({ logger: pino({ level: 'silent' }) });
app.get('/', async () => ({ ok: true }));
await app.listen({ port: 0, host: '127.0.0.1' });
closeOnSignals(app, async () => { process.stdout.write('closed\\n'); });
process.stdout.write('listening ' + process.pid + ' ' + app.server.address().port + '\\n');
`,
    );
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'npm-parent-fixture', private: true, type: 'module', scripts: { serve: `node --import ${tsx} server.ts` } }),
    );
    const npm = spawn('npm', ['run', '--silent', 'serve'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } });
    let out = '';
    npm.stdout.on('data', (d: Buffer) => (out += d.toString()));
    npm.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const until = Date.now() + 60_000;
    while (!/listening (\d+) (\d+)/.test(out)) {
      if (Date.now() > until) throw new Error(`the fixture did not start:\n${out}`);
      await sleep(100);
    }
    const [, pid, port] = /listening (\d+) (\d+)/.exec(out)!.map(Number) as [number, number, number];
    expect(pid).not.toBe(npm.pid);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);

    npm.kill('SIGTERM');
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const stopBy = Date.now() + 10_000;
    while (alive() && Date.now() < stopBy) await sleep(100);
    try {
      expect(alive(), `the server (pid ${pid}) still runs after npm was stopped:\n${out}`).toBe(false);
      expect(out).toContain('closed');
      await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    } finally {
      if (alive()) process.kill(pid, 'SIGKILL');
    }
  }, 90_000);
});
