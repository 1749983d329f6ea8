// The product's processes (every service's, the gateway's) as the launcher runs them: spawned from the
// compiled bundle or the sources (tsx), their output kept, stopped on purpose, and started again when
// one exits on its own once the product has started.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, writeFileSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Env, ProcessInfo } from '../distributed.js';
import { waitReady } from './readiness.js';
import { repoRoot } from './repo-root.js';
import { restartDelay } from './restarts.js';

export interface Child {
  info: ProcessInfo;
  entry: string;
  env: Env;
  child: ChildProcess | null;
  out: string;
  log: WriteStream;
  exited: Promise<void>;
  /** Stopped on purpose (kill(), stop()): not restarted. */
  held: boolean;
  startedAt: number;
  attempt: number;
  restartTimer: NodeJS.Timeout | null;
}

export interface ProcessesOptions {
  dataDir: string;
  /** The address the processes listen on (their URLs). */
  host: string;
  /** processes.json's url and startedAt. */
  baseUrl: string;
  t0: number;
  /** The infrastructure's servers, listed before the processes (none when it was given). */
  infraInfo: ProcessInfo[];
  /** Stops the infrastructure this start started, after the processes (null when it was given). */
  stopInfra: (() => void) | null;
  log: (line: string) => void;
  /** Each process's output also goes here. */
  onOutput?: (name: string, chunk: string) => void;
  /** Restart a process that exits on its own once supervise() was called (default true). */
  restartCrashed?: boolean;
}

/** The processes of one start: spawn, supervise, kill, restart, stop; DATA_DIR/processes.json lists them. */
export class Processes {
  readonly children: Child[] = [];
  /** The compiled entry points (ensureProcessesBuilt); null: the sources run with tsx. */
  bundles: Map<string, string> | null = null;
  private supervising = false;
  private stopped = false;
  private readonly o: ProcessesOptions;

  constructor(o: ProcessesOptions) {
    this.o = o;
    process.once('exit', this.killAll);
  }

  /** Start a process (e.g. crm-1, gateway) on its port; its output goes to DATA_DIR/logs/<name>.log. */
  start(name: string, service: string, kind: ProcessInfo['kind'], entry: string, port: number, childEnv: Env): Child {
    const c: Child = {
      info: { name, service, pid: 0, port, url: `http://${this.o.host}:${port}`, kind },
      entry,
      env: { ...childEnv, PORT: String(port) },
      child: null,
      out: '',
      log: createWriteStream(join(this.o.dataDir, 'logs', `${name}.log`), { flags: 'a' }),
      exited: Promise.resolve(),
      held: false,
      startedAt: Date.now(),
      attempt: 0,
      restartTimer: null,
    };
    this.children.push(c);
    this.spawn(c);
    return c;
  }

  private spawn(c: Child): void {
    const compiled = this.bundles?.get(c.entry);
    const child = spawn(process.execPath, compiled ? [compiled] : ['--import', 'tsx', c.entry], {
      cwd: repoRoot,
      env: c.env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    c.child = child;
    const onData = (d: Buffer) => {
      const s = d.toString();
      c.out = (c.out + s).slice(-20_000);
      c.log.write(s);
      this.o.onOutput?.(c.info.name, s);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    c.exited = new Promise((r) =>
      child.once('exit', (code, signal) => {
        r();
        this.onExit(c, code, signal);
      }),
    );
    c.info.pid = child.pid ?? 0;
    c.startedAt = Date.now();
  }

  // Once started, a process that exits on its own is started again after a backoff (restartDelay), and
  // the launcher says so; one stopped on purpose (kill(), stop(), Ctrl-C) stays stopped.
  supervise(): void {
    this.supervising = true;
  }

  private onExit(c: Child, code: number | null, signal: NodeJS.Signals | null): void {
    if (!this.supervising || this.stopped || c.held || this.o.restartCrashed === false) return;
    // (a Ctrl-C reaches the children with the launcher: its handler calls stop() within moments)
    setTimeout(() => this.superviseExit(c, code, signal), 200).unref();
  }

  private superviseExit(c: Child, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.stopped || c.held) return;
    const { delayMs, nextAttempt } = restartDelay(c.attempt, Date.now() - c.startedAt);
    c.attempt = nextAttempt;
    const at = new Date();
    this.o.log(
      `${c.info.name} (pid ${c.info.pid}) exited ${signal ? `on ${signal}` : `with code ${code}`} at ${at.toISOString().slice(11, 19)} UTC; restarting it in ${delayMs / 1000} s (restart ${nextAttempt})`,
    );
    c.restartTimer = setTimeout(() => {
      c.restartTimer = null;
      if (this.stopped || c.held) return;
      this.spawn(c);
      this.writeProcesses();
      this.o.log(`${c.info.name} restarted (pid ${c.info.pid})`);
    }, delayMs);
    c.restartTimer.unref();
  }

  writeProcesses(): void {
    writeFileSync(
      join(this.o.dataDir, 'processes.json'),
      `${JSON.stringify({ url: this.o.baseUrl, startedAt: new Date(this.o.t0).toISOString(), processes: [...this.o.infraInfo, ...this.children.map((c) => c.info)] }, null, 2)}\n`,
    );
  }

  /** The infrastructure's servers and every process, as copies. */
  list(): ProcessInfo[] {
    return [...this.o.infraInfo, ...this.children.map((c) => ({ ...c.info }))];
  }

  output(name: string): string {
    return this.children.find((c) => c.info.name === name)?.out ?? '';
  }

  /** Kill one process with a signal and wait for it to exit; it stays stopped until restart(). */
  async kill(name: string, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const c = this.children.find((x) => x.info.name === name);
    if (!c) throw new Error(`no process ${name}`);
    c.held = true;
    if (c.restartTimer) clearTimeout(c.restartTimer);
    await this.stopChild(c, signal);
  }

  /** Start a process again on its port (stopping it first when it runs), and wait until ready unless told not to. */
  async restart(name: string, o: { waitReady?: boolean } = {}): Promise<void> {
    const c = this.children.find((x) => x.info.name === name);
    if (!c) throw new Error(`no process ${name}`);
    c.held = true;
    if (c.restartTimer) clearTimeout(c.restartTimer);
    await this.stopChild(c);
    c.held = false;
    c.attempt = 0;
    this.spawn(c);
    this.writeProcesses();
    if (o.waitReady !== false) await waitReady(c, `${c.info.url.replace('localhost', '127.0.0.1')}/health/ready`, 60_000);
  }

  private async stopChild(c: Child, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = c.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await c.exited;
    clearTimeout(t);
  }

  // Should this process end without stop() (an uncaught error), its children do not outlive it.
  private readonly killAll = () => {
    for (const c of this.children) if (c.child && c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  };

  /** Stop every process (gateway first), then the infrastructure this start started; once. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    process.removeListener('exit', this.killAll);
    for (const c of this.children) if (c.restartTimer) clearTimeout(c.restartTimer);
    const gateway = this.children.filter((c) => c.info.kind === 'gateway');
    await Promise.all(gateway.map((c) => this.stopChild(c)));
    await Promise.all(this.children.filter((c) => c.info.kind !== 'gateway').map((c) => this.stopChild(c)));
    for (const c of this.children) c.log.end();
    this.o.stopInfra?.();
  }
}
