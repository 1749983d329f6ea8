import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const RESULTS_DIR = join(REPO_ROOT, 'bench', 'results');
export const LOG_DIR = join(RESULTS_DIR, 'logs');
const EXIT_WITH_PARENT = fileURLToPath(new URL('./exit-with-parent.mjs', import.meta.url));

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released for the server to take). */
// (below the ephemeral range: see its comment)
export { freePort } from '../../scripts/distributed.js';

export interface ServerProcess {
  name: string;
  pid: number;
  port: number;
  /** http://127.0.0.1:PORT */
  url: string;
  logFile: string;
  /** The last lines the process wrote (stdout and stderr). */
  tail(lines?: number): string;
  /** SIGTERM, then SIGKILL after a grace period; resolves once the process has exited. */
  stop(): Promise<void>;
}

export interface StartServerOptions {
  /** Label for logs and errors. */
  name: string;
  /** Entry file, relative to the repository root; run with `node --import tsx`. */
  script: string;
  env: Record<string, string>;
  port: number;
  /** Polled until it answers 200. */
  readyPath?: string;
  readyTimeoutMs?: number;
  /** Extra node flags (e.g. --cpu-prof). */
  nodeArgs?: string[];
}

const live = new Set<ChildProcess>();

/**
 * The environment a server gets: a few basics from ours plus its own settings. Our own environment
 * is not passed through whole, so a stray DATABASE_URL or JWT_PUBLIC_KEY_FILE in the shell cannot
 * change what is measured.
 */
function baseEnv(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'TZ'];
  // NODE_ENV stays unset, as with npm start: the launchers' defaults apply (in production mode
  // some plugins demand secrets the bench has no use for)
  const env: Record<string, string> = { KAFKAJS_NO_PARTITIONER_WARNING: '1' };
  for (const k of keep) if (process.env[k]) env[k] = process.env[k]!;
  return env;
}

/** Start a Node server as a child process and wait until its readiness route answers 200. */
export async function startServer(o: StartServerOptions): Promise<ServerProcess> {
  mkdirSync(LOG_DIR, { recursive: true });
  const logFile = join(LOG_DIR, `${o.name}.log`);
  const log = createWriteStream(logFile);
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    log.write(chunk);
    for (const l of chunk.toString('utf8').split('\n')) if (l) lines.push(l);
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  const child = spawn(process.execPath, ['--import', 'tsx', '--import', EXIT_WITH_PARENT, ...(o.nodeArgs ?? []), o.script], {
    cwd: REPO_ROOT,
    env: { ...baseEnv(), ...o.env, PORT: String(o.port) },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  live.add(child);
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  // The IPC channel is only there so the child notices our death; it must not keep us alive.
  child.channel?.unref();
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      log.end();
      resolve(code ?? (signal ? 128 : null));
    });
  });
  const url = `http://127.0.0.1:${o.port}`;
  const tail = (n = 30) => lines.slice(-n).join('\n');
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const t = setTimeout(() => child.kill('SIGKILL'), 8_000);
    await exited;
    clearTimeout(t);
  };
  const server: ServerProcess = { name: o.name, pid: child.pid!, port: o.port, url, logFile, tail, stop };

  const readyUrl = url + (o.readyPath ?? '/health/ready');
  const deadline = Date.now() + (o.readyTimeoutMs ?? 90_000);
  let lastStatus: string;
  let dead: number | null | undefined;
  void exited.then((c) => (dead = c));
  for (;;) {
    if (dead !== undefined) {
      throw new Error(`${o.name} exited (code ${dead}) before it was ready. Last output:\n${tail()}`);
    }
    try {
      const res = await fetch(readyUrl, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) {
        await res.arrayBuffer();
        return server;
      }
      lastStatus = `${res.status} ${await res.text()}`;
    } catch (err) {
      lastStatus = (err as Error).message;
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${o.name} was not ready at ${readyUrl} in time (last: ${lastStatus}). Last output:\n${tail()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Kill whatever is still running, synchronously (last resort on exit). */
export function killAllNow() {
  for (const c of live) {
    try {
      c.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}
