import { generateSigningKeys } from '@countinghouse/kit';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { CpuProbe } from './cpu.js';
import { Infra } from './infra.js';
import type { Row } from './report.js';
import { measure, measurePaced, type LoadResult } from './load.js';
import { freePort, REPO_ROOT, RESULTS_DIR, startServer, type ServerProcess, type StartServerOptions } from './proc.js';

const PROFILE_DIR = join(RESULTS_DIR, 'profiles');

export interface BenchSettings {
  /** Concurrent connections for every maximum-throughput run. */
  connections: number;
  /** Measured seconds per run. */
  durationS: number;
  /** Warm-up seconds before each run (discarded). */
  warmupS: number;
  /** The fixed rate (requests per second) of the latency runs. */
  fixedRate: number;
  /** Rounds of each maximum-throughput comparison (targets interleaved A B C, C B A, ...). */
  rounds: number;
  /** Leave PostgreSQL, Redis and Kafka running at the end when this run started them. */
  keepInfra: boolean;
}

/** One thing to load: a URL (with headers), named for the table. */
export interface Target {
  key: string;
  label: string;
  url: string;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
}

export const ADMIN = { username: 'benchadmin', password: 'bench-password-not-secret' };

export interface Identity {
  server: ServerProcess;
  /** Bearer token of a signed-in administrator. */
  token: string;
}

type Cleanup = () => Promise<void>;

/**
 * What sections share: settings, infra, signing keys, fresh databases, child servers, and shared
 * services started once (identity in distributed mode). Everything registered here is cleaned up
 * by close(), in reverse order; section-scoped resources go through a Scope, closed after the section.
 */
export class BenchContext {
  readonly infra: Infra;
  private readonly cleanups: Cleanup[] = [];
  private keysMemo?: { privateKeyPem: string; publicKeyPem: string };
  private readonly t0 = Date.now();
  /** Servers by name, for CPU accounting. */
  private readonly servers = new Map<string, number>();

  constructor(readonly settings: BenchSettings) {
    this.infra = new Infra((m) => this.log(m));
  }

  log(msg: string) {
    process.stderr.write(`[bench ${((Date.now() - this.t0) / 1000).toFixed(1).padStart(5)}s] ${msg}\n`);
  }

  /** One Ed25519 pair for the whole run (identity signs, gateway and services verify). */
  get keys() {
    this.keysMemo ??= generateSigningKeys();
    return this.keysMemo;
  }

  /** A PEM as one env line (services accept literal \n, see kit readPem). */
  static pemEnv(pem: string): string {
    return pem.replace(/\n/g, '\\n');
  }

  onCleanup(fn: Cleanup) {
    this.cleanups.push(fn);
  }

  /** A child scope whose servers and databases go away when the section ends. */
  scope(): Scope {
    return new Scope(this);
  }

  async close() {
    while (this.cleanups.length) {
      const fn = this.cleanups.pop()!;
      await fn().catch((err: Error) => this.log(`cleanup: ${err.message}`));
    }
    await this.infra.stopStarted(this.settings.keepInfra);
  }

  /**
   * CPU accounting groups: each running server, then the infra servers (with their worker
   * processes), then this process (the load generator) with anything else it started.
   */
  probe(): CpuProbe {
    const groups: Record<string, () => number[]> = {};
    for (const [name, pid] of this.servers) groups[name] = () => [pid];
    const runDir = this.infra.runDir;
    const pidFile = (f: string) => () => {
      try {
        const pid = Number(readFileSync(join(runDir, f), 'utf8').split('\n')[0]);
        return pid > 0 ? [pid] : [];
      } catch {
        return [];
      }
    };
    groups.postgres = pidFile('postgres/data/postmaster.pid');
    groups.nginx = pidFile('nginx/nginx.pid');
    groups.kafka = pidFile('kafka/kafka.pid');
    groups.redis = pidFile('redis/redis.pid');
    groups['load generator'] = () => [process.pid];
    return new CpuProbe(groups);
  }

  /** Warm up, then measure as fast as the target goes, with the run's connections and duration. */
  load(url: string, headers?: Record<string, string>): Promise<LoadResult> {
    const s = this.settings;
    return measure({ url, headers, connections: s.connections, durationS: s.durationS, warmupS: s.warmupS, probe: this.probe() });
  }

  /**
   * Maximum-throughput runs of several targets, interleaved over the rounds (A B C, then C B A) so
   * a slow spell of the shared machine does not land on one target only. Each row keeps its best
   * round (interference only ever slows a run down); every round is kept in row.rounds.
   */
  async compare(targets: Target[]): Promise<Row[]> {
    const s = this.settings;
    const runs = new Map<string, LoadResult[]>(targets.map((t) => [t.key, []]));
    for (let r = 0; r < s.rounds; r++) {
      for (const t of r % 2 ? [...targets].reverse() : targets) {
        this.log(`measuring (${t.key}) ${t.label}${s.rounds > 1 ? `, round ${r + 1} of ${s.rounds}` : ''}`);
        const warmupS = r === 0 ? s.warmupS : Math.min(1, s.warmupS);
        runs.get(t.key)!.push(
          await measure({
            url: t.url,
            headers: t.headers,
            method: t.method,
            body: t.body,
            connections: s.connections,
            durationS: s.durationS,
            warmupS,
            probe: this.probe(),
          }),
        );
      }
    }
    return targets.map((t) => {
      const all = runs.get(t.key)!;
      const best = all.reduce((a, b) => (b.rps > a.rps ? b : a));
      return { key: t.key, label: t.label, result: best, ...(all.length > 1 ? { rounds: all } : {}) };
    });
  }

  /** Warm up, then measure at the fixed rate with autocannon's overallRate. */
  loadAtRate(url: string, headers?: Record<string, string>): Promise<LoadResult> {
    const s = this.settings;
    return measure({
      url,
      headers,
      connections: s.connections,
      durationS: s.durationS,
      warmupS: Math.min(2, s.warmupS),
      overallRate: s.fixedRate,
      probe: this.probe(),
    });
  }

  /**
   * Each query of a list page at `rate` req/s, requests spaced evenly, one after another (the crm and
   * deadlines sections): a row per query, labelled `<label> @paced`.
   */
  async measurePacedQueries(
    baseUrl: string,
    queries: ReadonlyArray<{ key: string; label: string; path: string }>,
    headers: Record<string, string>,
    rate: number,
  ): Promise<Row[]> {
    const rows: Row[] = [];
    for (const q of queries) {
      this.log(`measuring (${q.key}) ${q.label}`);
      const result = await measurePaced({
        url: baseUrl + q.path,
        headers,
        rate,
        durationS: this.settings.durationS,
        warmupS: Math.min(2, this.settings.warmupS),
        maxSockets: 20,
        probe: this.probe(),
      });
      rows.push({ key: q.key, label: `${q.label} @paced`, result });
    }
    return rows;
  }

  /** The same fixed rate, requests spaced evenly (see measurePaced). */
  loadPaced(url: string, headers?: Record<string, string>): Promise<LoadResult> {
    const s = this.settings;
    return measurePaced({
      url,
      headers,
      rate: s.fixedRate,
      durationS: s.durationS,
      warmupS: Math.min(2, s.warmupS),
      maxSockets: s.connections,
      probe: this.probe(),
    });
  }

  /**
   * Identity in distributed mode (its own process, Kafka, Redis, a fresh database), started once and
   * shared by the sections that list 'identity' in `uses`; stopped after the last of them.
   */
  identity(): Promise<Identity> {
    return this.shared('identity', async (scope) => {
      const [pgEnv, redis, kafka] = await Promise.all([
        this.infra.ensure('postgres'),
        this.infra.ensure('redis'),
        this.infra.ensure('kafka'),
      ]);
      const databaseUrl = await scope.database(pgEnv.DATABASE_URL!, 'identity');
      const server = await scope.spawn({
        name: 'identity',
        script: 'services/identity/src/main.ts',
        env: {
          HOST: '127.0.0.1',
          DATABASE_URL: databaseUrl,
          KAFKA_BROKERS: kafka.KAFKA_BROKERS!,
          REDIS_URL: redis.REDIS_URL!,
          JWT_PUBLIC_KEY: BenchContext.pemEnv(this.keys.publicKeyPem),
          JWT_PRIVATE_KEY: BenchContext.pemEnv(this.keys.privateKeyPem),
          ADMIN_USERNAME: ADMIN.username,
          ADMIN_PASSWORD: ADMIN.password,
          LOG_LEVEL: 'warn',
        },
      });
      const token = await signIn(server.url);
      return { server, token };
    });
  }

  private readonly sharedMemo = new Map<string, { value: Promise<unknown>; scope: Scope }>();

  /** A resource built once and kept until release(name) or close(). */
  shared<T>(name: string, build: (scope: Scope) => Promise<T>): Promise<T> {
    let entry = this.sharedMemo.get(name);
    if (!entry) {
      const scope = new Scope(this);
      entry = { value: build(scope), scope };
      this.sharedMemo.set(name, entry);
      this.onCleanup(() => this.release(name));
    }
    return entry.value as Promise<T>;
  }

  /** Stop a shared resource (no-op when it was never built or is already released). */
  async release(name: string) {
    const entry = this.sharedMemo.get(name);
    if (!entry) return;
    this.sharedMemo.delete(name);
    await entry.value.catch(() => {});
    await entry.scope.close();
    this.log(`${name}: released`);
  }

  /** Names of the shared resources currently held. */
  sharedNames(): string[] {
    return [...this.sharedMemo.keys()];
  }

  /** Start a server (see startServer); it is stopped when `owner` closes. */
  async spawn(
    o: Omit<StartServerOptions, 'port'> & { port?: number },
    owner: { onCleanup(fn: Cleanup): void } = this,
  ): Promise<ServerProcess> {
    const t0 = Date.now();
    const profiled = (process.env.BENCH_CPU_PROF ?? '').split(',').map((x) => x.trim());
    if (profiled.includes(o.name) || profiled.includes('all')) {
      // one file per thread (tsx runs its loader on a second one): the biggest is the main thread
      const dir = join(PROFILE_DIR, o.name);
      mkdirSync(dir, { recursive: true });
      o = { ...o, nodeArgs: [...(o.nodeArgs ?? []), '--cpu-prof', `--cpu-prof-dir=${dir}`] };
      this.log(`${o.name}: CPU profile to ${dir} (written when it stops)`);
    }
    const server = await startServer({ ...o, port: o.port ?? (await freePort()) });
    this.servers.set(o.name, server.pid);
    owner.onCleanup(async () => {
      await server.stop();
      if (this.servers.get(o.name) === server.pid) this.servers.delete(o.name);
    });
    this.log(`${o.name}: ready on ${server.url} in ${((Date.now() - t0) / 1000).toFixed(1)} s (pid ${server.pid}, log ${server.logFile})`);
    return server;
  }

  /** A new, empty database on the server at adminUrl; dropped when `owner` closes. Returns its URL. */
  async database(adminUrl: string, label: string, owner: { onCleanup(fn: Cleanup): void } = this): Promise<string> {
    const name = `bench_${label.replace(/[^a-z0-9]/g, '_')}_${randomBytes(4).toString('hex')}`;
    await withClient(adminUrl, (c) => c.query(`create database ${name}`));
    owner.onCleanup(async () => {
      await withClient(adminUrl, async (c) => {
        await c.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
        await c.query(`drop database if exists ${name}`);
      });
    });
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    return u.toString();
  }
}

export class Scope {
  private readonly cleanups: Cleanup[] = [];
  constructor(readonly ctx: BenchContext) {}
  onCleanup(fn: Cleanup) {
    this.cleanups.push(fn);
  }
  spawn(o: Omit<StartServerOptions, 'port'> & { port?: number }) {
    return this.ctx.spawn(o, this);
  }
  database(adminUrl: string, label: string) {
    return this.ctx.database(adminUrl, label, this);
  }
  async close() {
    while (this.cleanups.length) {
      const fn = this.cleanups.pop()!;
      await fn().catch((err: Error) => this.ctx.log(`cleanup: ${err.message}`));
    }
  }
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** POST /api/identity/admin/login at baseUrl; returns body.session_token. */
export async function signIn(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/identity/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const body = (await res.json().catch(() => ({}))) as { session_token?: string };
  if (res.status !== 200 || !body.session_token) throw new Error(`sign-in at ${baseUrl} failed: ${res.status} ${JSON.stringify(body)}`);
  return body.session_token;
}

/** One request before loading a target: it must answer 200 with success, or the run is pointless. */
export async function expectVerifyOk(url: string, token: string): Promise<void> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  if (res.status !== 200 || !text.includes('"success":true')) throw new Error(`GET ${url} answered ${res.status}: ${text.slice(0, 300)}`);
}

/**
 * The gateway sources the bench runs: gateway/src, or a patched copy named by BENCH_GATEWAY_SRC
 * (a folder with main.ts and compose.ts, e.g. under bench/results/scratch/), to measure a change
 * without touching the working tree others use.
 */
export function gatewaySrc(): string {
  const dir = process.env.BENCH_GATEWAY_SRC;
  return dir ? resolve(REPO_ROOT, dir) : join(REPO_ROOT, 'gateway', 'src');
}

export const VERIFY_PATH = '/api/identity/admin/session';
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
