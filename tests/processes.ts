import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { currentProcessFiles } from '../scripts/build-processes.js';

export const repoRoot = fileURLToPath(new URL('../', import.meta.url));

// One free-port rule for the launcher and the tests (below the ephemeral range: see its comment).
export { freePort } from '../scripts/distributed.js';

export function requireEnv(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the tests with \`npm test\`, which starts PostgreSQL, Redis and Kafka (infra/).`);
  return v;
}

export interface Proc {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

let compiled: Map<string, string> | null | undefined;

/**
 * How a process is started: its compiled file (`npm run build:services`, dist/processes/), as
 * `npm run start:distributed` and the image run it, when one is current; otherwise its TypeScript through
 * tsx (an entry with no compiled file, e.g. the all-in-one; or LAUNCH_WITH=tsx, as for the launcher). A
 * compiled process is ready in about half the time and CPU (docs/perf/processes.md): the distributed
 * files, one at a time, start about twenty (issue 27). The distributed projects' global set-up compiles
 * them when missing or stale (tests/distributed/global-setup.ts); a file that starts after a source was
 * edited (they are stale then) runs the sources.
 */
export function nodeArgs(entry: string): string[] {
  if (process.env.LAUNCH_WITH !== 'tsx') {
    compiled ??= currentProcessFiles(repoRoot);
    const file = compiled?.get(entry);
    if (file) return [file];
  }
  return ['--import', 'tsx', entry];
}

/** Start an entry point (a .ts file of ours) as its own Node process, capturing its output: nodeArgs. */
export function startNode(entry: string, env: Record<string, string>): Proc {
  let out = '';
  const child = spawn(process.execPath, nodeArgs(entry), {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/root', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d.toString()));
  child.stderr!.on('data', (d) => (out += d.toString()));
  return {
    child,
    output: () => out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/**
 * Stop every process at once: a service's graceful stop waits for its Kafka consumers' fetch in flight
 * (kafkajs holds an idle fetch up to 5 s), so stopping them one after the other added those waits up
 * (records-kafka's four processes took 13 s). Absent ones (a set-up that failed early) are skipped.
 */
export async function stopAll(procs: Array<Proc | null | undefined>): Promise<void> {
  await Promise.all(procs.map((p) => p?.stop()));
}

export async function waitReady(url: string, proc: Proc, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (proc.child.exitCode !== null) throw new Error(`process exited (${proc.child.exitCode}) before ready:\n${proc.output()}`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms:\n${proc.output()}`);
}
