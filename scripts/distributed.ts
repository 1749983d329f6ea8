// The distributed product on one machine: PostgreSQL, Redis, Kafka and MinIO (infra/ launchers, on
// 127.0.0.1), every service as its own Node process (crm and documents REPLICAS times), and the gateway
// serving the UI. `npm run start:distributed` (scripts/start-distributed.ts) runs it in the foreground;
// the tests start it through startDistributed() with their own infrastructure.
//
// The services are proto's SERVICES, each described by its src/service.ts (the kit's defineService): a
// new service is a folder and a line there. What a service is given beyond the shared settings follows
// from its settings schema: a variable the launcher offers (a key file, the settings service's URL, the
// object store, a data-folder secret) is passed to each service that declares it.
import {
  createDb,
  createPool,
  dataFolderEnv,
  ensureLoginRole,
  generateSigningKeys,
  generateGatewayKeys,
  KafkaClientConfigProperties,
  serviceRoleName,
  urlWithRole,
  type Db,
} from '@countinghouse/kit';
import { seedBillingDemo } from '@countinghouse/billing';
import { demoClientFacts, seedCrmDemo } from '@countinghouse/crm';
import { assertDemoSeedAllowed, DEMO_PEOPLE, seedIdentityDemo } from '@countinghouse/identity';
import { Type, type TObject } from '@sinclair/typebox';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync, type WriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ensureProcessesBuilt } from './build-processes.js';
import { loadServices } from '../gateway/src/services.js';
import { GatewayConfigSchema } from '../gateway/src/config.js';

export const repoRoot = fileURLToPath(new URL('../', import.meta.url));

type Env = Record<string, string | undefined>;

export interface ServiceSpec {
  name: string;
  entry: string;
  /** The service's own config schema: variables of it found in the launcher's environment are passed on. */
  schema: TObject;
  /** Runs REPLICAS processes (default 2); the others run one. */
  replicated?: boolean;
}

const descriptors = await loadServices();

/** Every service of the product, in start order (proto's SERVICES: settings first, identity, media and the gateway read it). */
export const SERVICE_TABLE: ServiceSpec[] = descriptors.map((d) => ({
  name: d.name,
  entry: `services/${d.name}/src/main.ts`,
  schema: Type.Object(d.configSchema.properties),
  replicated: d.replicated,
}));

export const GATEWAY_ENTRY = 'gateway/src/main.ts';

export interface ProcessInfo {
  /** e.g. crm-1, gateway */
  name: string;
  service: string;
  pid: number;
  port: number;
  url: string;
  kind: 'service' | 'gateway' | 'infra';
}

export interface Infra {
  databaseUrl: string;
  redisUrl: string;
  kafkaBrokers: string;
  /** S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE */
  s3: Record<string, string>;
}

export interface DistributedOptions {
  /** PORT, DATA_DIR, ADMIN_USERNAME, ADMIN_PASSWORD, SEED_DEMO, REPLICAS, LOG_LEVEL, … (default process.env) */
  env?: Env;
  /** Use these servers instead of starting PostgreSQL, Redis, Kafka and MinIO with infra/ (tests). */
  infra?: Infra;
  /** Prefix of Kafka topics and groups (tests share one broker). */
  kafkaNamespace?: string;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
  /** Each process's output also goes here (default: only DATA_DIR/logs/<name>.log). */
  onOutput?: (name: string, chunk: string) => void;
  /**
   * Aborting it while the start is under way (Ctrl-C) stops what was started so far, infrastructure
   * included, and the start rejects with a StartCancelled error. (Once started, stop() is the way.)
   */
  signal?: AbortSignal;
  /** Restart a process that exits on its own after the start, with backoff (default true). */
  restartCrashed?: boolean;
}

/** startDistributed's rejection when its signal was aborted: everything it had started is stopped. */
export class StartCancelled extends Error {
  constructor() {
    super('the start was cancelled: everything it had started is stopped');
    this.name = 'StartCancelled';
  }
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new StartCancelled();
}

export interface Distributed {
  baseUrl: string;
  dataDir: string;
  databaseUrl: string;
  processes(): ProcessInfo[];
  /** The first administrator's generated password, when this start created it without ADMIN_PASSWORD. */
  generatedAdminPassword: string | null;
  /** Demo people seeded on this start (0 when none). */
  demoPeople: number;
  /** The demo people's password when this start generated it (shown once); null when DEMO_PASSWORD chose it or nothing was seeded. */
  demoPassword: string | null;
  /** Kill one process (e.g. 'crm-1') with a signal and wait for it to exit; it stays stopped until restart(). */
  kill(name: string, signal?: NodeJS.Signals): Promise<void>;
  /**
   * Start a process again on its port (stopping it first when it runs) and wait until ready; with
   * `{ waitReady: false }` return once it is spawned (one started while Kafka is down waits for it, live
   * but not ready).
   */
  restart(name: string, o?: { waitReady?: boolean }): Promise<void>;
  /** The last output of a process (for failure messages). */
  output(name: string): string;
  /** Stop every process (gateway first), then the infrastructure this call started. */
  stop(): Promise<void>;
}

/** What identity prints, once, when it creates the first administrator with a generated password. */
const ADMIN_LINE = /First administrator created: username "[^"]*", password "([^"]+)"/;

const bool = (v: string | undefined, dflt: boolean) => (v === undefined || v === '' ? dflt : v === 'true' || v === '1');

/**
 * A free port on 127.0.0.1 for a process the launcher (or a test) may stop and start again on the same
 * port: chosen below the kernel's ephemeral range (net.ipv4.ip_local_port_range, 32768-60999 by
 * default). A port inside that range, left closed while its process restarts, can be taken meanwhile by
 * an outgoing connection to it (a client retrying connects from that very port to itself, TCP's
 * simultaneous open) and then the process cannot listen there again.
 */
export async function freePort(range?: { from: number; below: number }): Promise<number> {
  const [low] = ephemeralRange();
  const { from, below } = range ?? { from: Math.min(20_000, low - 2000), below: low };
  for (let i = 0; i < 50; i++) {
    const port = from + Math.floor(Math.random() * (below - from));
    if (await portFree(port)) return port;
  }
  // (a crowded machine: any free port the kernel gives)
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => res(port));
    });
  });
}

/** The kernel's ephemeral port range (Linux; the default elsewhere). */
export function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high && low > 2000) return [low, high];
  } catch {
    // not Linux
  }
  return [32768, 60999];
}

async function portFree(port: number): Promise<boolean> {
  return new Promise((res) => {
    const srv = createServer();
    srv.once('error', () => res(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => res(true)));
  });
}

function secretFile(file: string, make: () => string): string {
  if (!existsSync(file)) writeFileSync(file, make(), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

interface LaunchKeys {
  privateKeyFile: string;
  publicKeyFile: string;
  /** The gateway's request-signing pair: the private half goes to the gateway only, the public one to every service. */
  gatewayPrivateKeyFile: string;
  gatewayPublicKeyFile: string;
}

/** The signing keys, made once in DATA_DIR/keys (same files as `npm start`'s) and kept. */
function loadKeys(dataDir: string): LaunchKeys {
  const dir = join(dataDir, 'keys');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const privateKeyFile = join(dir, 'jwt-ed25519.pem');
  const publicKeyFile = join(dir, 'jwt-ed25519.pub.pem');
  if (!existsSync(privateKeyFile) || !existsSync(publicKeyFile)) {
    const k = generateSigningKeys();
    writeFileSync(privateKeyFile, k.privateKeyPem, { mode: 0o600 });
    writeFileSync(publicKeyFile, k.publicKeyPem, { mode: 0o644 });
  }
  const gatewayPrivateKeyFile = join(dir, 'gateway-ed25519.pem');
  const gatewayPublicKeyFile = join(dir, 'gateway-ed25519.pub.pem');
  if (!existsSync(gatewayPrivateKeyFile) || !existsSync(gatewayPublicKeyFile)) {
    const k = generateGatewayKeys();
    writeFileSync(gatewayPrivateKeyFile, k.privateKeyPem, { mode: 0o600 });
    writeFileSync(gatewayPublicKeyFile, k.publicKeyPem, { mode: 0o644 });
  }
  return {
    privateKeyFile,
    publicKeyFile,
    gatewayPrivateKeyFile,
    gatewayPublicKeyFile,
  };
}

/**
 * Each service's own PostgreSQL role (`<database>_<service>`, created or given its password again, as
 * the owner of `ownerUrl`), its password generated once and kept in DATA_DIR/keys. Returns each
 * service's DATABASE_URL; the owner's stays for migrations (DATABASE_MIGRATION_URL, docs/decisions.md).
 */
export async function ensureServiceRoles(ownerUrl: string, services: string[], keysDir: string): Promise<Record<string, string>> {
  const database = decodeURIComponent(new URL(ownerUrl).pathname.replace(/^\//, '')) || 'postgres';
  const client = new pg.Client({ connectionString: ownerUrl });
  await client.connect();
  try {
    const urls: Record<string, string> = {};
    for (const service of services) {
      const role = serviceRoleName(database, service);
      const password = secretFile(join(keysDir, `postgres-${service}.secret`), () => randomBytes(24).toString('base64url'));
      await ensureLoginRole(client, role, password);
      urls[service] = urlWithRole(ownerUrl, role, password);
    }
    return urls;
  } finally {
    await client.end();
  }
}

/** Run an infra/ launcher; returns its KEY=VALUE lines. */
function infraScript(
  script: string,
  cmd: 'start' | 'stop' | 'status',
  env: Env,
): { ok: boolean; vars: Record<string, string>; err: string } {
  const r = spawnSync('bash', [join(repoRoot, 'infra', script), cmd], {
    env: env as NodeJS.ProcessEnv,
    encoding: 'utf8',
    timeout: 180_000,
  });
  const vars: Record<string, string> = {};
  for (const line of (r.stdout ?? '').split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line);
    if (m) vars[m[1]!] = m[2]!;
  }
  return { ok: r.status === 0, vars, err: r.stderr ?? '' };
}

interface InfraServer {
  name: string;
  script: string;
  portVars: string[];
  pidFile: (runDir: string) => string | null;
}

const INFRA_SERVERS: InfraServer[] = [
  { name: 'postgres', script: 'postgres.sh', portVars: ['PG_PORT'], pidFile: () => null },
  { name: 'redis', script: 'redis.sh', portVars: ['REDIS_PORT'], pidFile: (d) => join(d, 'redis', 'redis.pid') },
  {
    name: 'kafka',
    script: 'kafka/kafka.sh',
    portVars: ['KAFKA_PORT', 'KAFKA_CONTROLLER_PORT'],
    pidFile: (d) => join(d, 'kafka', 'kafka.pid'),
  },
  { name: 'minio', script: 'minio.sh', portVars: ['MINIO_PORT'], pidFile: (d) => join(d, 'minio', 'minio.pid') },
];

/**
 * PostgreSQL, Redis, Kafka and MinIO in DATA_DIR/infra, each on the port it had last time when that is
 * still free (else a free one). Returns what they print and how to stop them.
 */
async function startInfra(dataDir: string, log: (l: string) => void, signal?: AbortSignal) {
  const runDir = join(dataDir, 'infra');
  mkdirSync(runDir, { recursive: true });
  const portsFile = join(runDir, 'ports.json');
  const saved: Record<string, number> = existsSync(portsFile)
    ? (JSON.parse(readFileSync(portsFile, 'utf8')) as Record<string, number>)
    : {};
  const ports: Record<string, number> = {};
  for (const s of INFRA_SERVERS)
    for (const v of s.portVars) ports[v] = saved[v] && (await portFree(saved[v])) ? saved[v] : await freePort();
  const baseEnv: Env = { PATH: process.env.PATH, HOME: process.env.HOME, INFRA_RUN_DIR: runDir };
  const started: InfraServer[] = [];
  const vars: Record<string, string> = {};
  const info: ProcessInfo[] = [];
  const stopAll = () => {
    for (const s of [...started].reverse())
      infraScript(s.script, 'stop', { ...baseEnv, ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) });
  };
  try {
    for (const s of INFRA_SERVERS) {
      // (each launcher runs synchronously: a Ctrl-C meanwhile is handled here, on a turn of the event loop)
      await new Promise((r) => setImmediate(r));
      throwIfCancelled(signal);
      const env: Env = { ...baseEnv, ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) };
      let r = infraScript(s.script, 'status', env);
      // (listed before it starts: a start interrupted half-way, e.g. its launcher hit by the Ctrl-C too, is stopped as well)
      started.push(s);
      if (!r.ok) {
        log(`starting ${s.name}…`);
        r = infraScript(s.script, 'start', env);
        if (!r.ok) throw new Error(`${s.name} did not start:\n${r.err.trim().split('\n').slice(-8).join('\n')}`);
      }
      Object.assign(vars, r.vars);
      const url = Object.values(r.vars)[0] ?? '';
      const port = Number(/:(\d+)/.exec(url.replace(/^[a-z]+:\/\/[^@]*@/, ''))?.[1] ?? /:(\d+)/.exec(url)?.[1] ?? 0);
      if (s.portVars.length === 1) ports[s.portVars[0]!] = port || ports[s.portVars[0]!]!;
      const pf = s.pidFile(runDir);
      let pid = pf && existsSync(pf) ? Number(readFileSync(pf, 'utf8').trim()) : 0;
      if (s.name === 'postgres') pid = postgresPid(url);
      info.push({ name: s.name, service: s.name, pid, port, url, kind: 'infra' });
    }
    await new Promise((r) => setImmediate(r));
    throwIfCancelled(signal);
  } catch (err) {
    stopAll();
    throw err;
  }
  writeFileSync(portsFile, JSON.stringify(ports, null, 2));
  const infra: Infra = {
    databaseUrl: vars.DATABASE_URL!,
    redisUrl: vars.REDIS_URL!,
    kafkaBrokers: vars.KAFKA_BROKERS!,
    s3: Object.fromEntries(Object.entries(vars).filter(([k]) => k.startsWith('S3_'))),
  };
  return { infra, info, stop: stopAll };
}

/** The postmaster's pid, asked of the server itself (its data folder may be elsewhere when running as root). */
function postgresPid(url: string): number {
  const r = spawnSync(
    process.execPath,
    [
      '-e',
      `const pg=require('pg');const c=new pg.Client(${JSON.stringify(url)});c.connect().then(()=>c.query("select setting from pg_settings where name='data_directory'")).then(r=>{process.stdout.write(require('fs').readFileSync(r.rows[0].setting+'/postmaster.pid','utf8').split('\\n')[0]);return c.end()}).catch(()=>process.exit(1))`,
    ],
    { cwd: repoRoot, encoding: 'utf8', timeout: 10_000 },
  );
  return Number(r.stdout?.trim()) || 0;
}

/**
 * The launcher's restart rule for a process that exits on its own once the product has started: after
 * 1 s, then 2 s, 4 s, … at most 30 s; a process that had run 60 s or more starts over at 1 s (it was
 * well, so this is a new fault, not the same one again).
 */
export const RESTART_BACKOFF = { firstMs: 1000, maxMs: 30_000, healthyAfterMs: 60_000 };

/** The wait before restart number `attempt` (0-based) and the next attempt number. */
export function restartDelay(attempt: number, ranMs: number): { delayMs: number; nextAttempt: number } {
  const a = ranMs >= RESTART_BACKOFF.healthyAfterMs ? 0 : attempt;
  return { delayMs: Math.min(RESTART_BACKOFF.firstMs * 2 ** a, RESTART_BACKOFF.maxMs), nextAttempt: a + 1 };
}

interface Child {
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

/** Start the distributed product; resolves once the gateway is ready. */
export async function startDistributed(o: DistributedOptions = {}): Promise<Distributed> {
  const env = o.env ?? process.env;
  const log = o.log ?? (() => {});
  const t0 = Date.now();
  const dataDir = resolve(repoRoot, env.DATA_DIR || '.data-distributed');
  mkdirSync(join(dataDir, 'logs'), { recursive: true });
  const replicas = Number(env.REPLICAS || 2);
  if (!Number.isInteger(replicas) || replicas < 1 || replicas > 16)
    throw new Error(`REPLICAS must be a whole number from 1 to 16 (got ${env.REPLICAS})`);
  const frontendDir = env.FRONTEND_DIR ? resolve(env.FRONTEND_DIR) : join(repoRoot, 'frontend', 'dist');
  if (!existsSync(join(frontendDir, 'index.html'))) throw new Error(`the web app is not built (${frontendDir}): run \`npm run build\``);

  const gatewayPort = env.PORT ? Number(env.PORT) : 3000;
  if (!(await portFree(gatewayPort))) throw new Error(`port ${gatewayPort} is in use: set PORT to another one`);
  const host = '127.0.0.1';
  const baseUrl = `http://${env.PUBLIC_HOST || 'localhost'}:${gatewayPort}`;
  const publicUrl = env.PUBLIC_URL || baseUrl;

  // A demo seed that would be refused (NODE_ENV=production, a weak DEMO_PASSWORD) stops the start before
  // anything runs, as `npm start` does: refused at the end, it left the infrastructure running.
  const seedDemo = bool(env.SEED_DEMO, true) && !existsSync(join(dataDir, 'demo-seeded'));
  if (seedDemo) assertDemoSeedAllowed({ nodeEnv: env.NODE_ENV ?? 'development', password: env.DEMO_PASSWORD || undefined });

  let infraStop: (() => void) | null = null;
  let infra = o.infra;
  const infraInfo: ProcessInfo[] = [];
  if (!infra) {
    const s = await startInfra(dataDir, log, o.signal);
    infra = s.infra;
    infraStop = s.stop;
    infraInfo.push(...s.info);
    log(`infrastructure ready (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  const keys = loadKeys(dataDir);
  // Each service on its own role, limited to its schemas (DB_SERVICE_ROLES=false: every one as the owner).
  const serviceDbUrls = bool(env.DB_SERVICE_ROLES, true)
    ? await ensureServiceRoles(
        infra.databaseUrl,
        SERVICE_TABLE.map((s) => s.name),
        join(dataDir, 'keys'),
      )
    : null;

  // every process's port, chosen up front: identity, media and the gateway need the others' URLs
  const plan: Array<{ spec: ServiceSpec; index: number; port: number }> = [];
  for (const spec of SERVICE_TABLE) {
    const n = spec.replicated ? replicas : 1;
    for (let i = 1; i <= n; i++) plan.push({ spec, index: i, port: await freePort() });
  }
  const urls = (service: string) =>
    plan
      .filter((p) => p.spec.name === service)
      .map((p) => `http://${host}:${p.port}`)
      .join(',');
  // What the launcher offers the services; each is given the variables its schema declares.
  const offered: Env = {
    // secrets kept in DATA_DIR/keys (the same files as `npm start`'s) and data folders, unless the person set them
    ...dataFolderEnv(descriptors, env, dataDir),
    JWT_PRIVATE_KEY_FILE: keys.privateKeyFile,
    // the practice details are read from the settings service at start (any replica will do)
    SETTINGS_URL: urls('settings').split(',')[0],
    ...infra.s3,
  };
  const logLevel = env.LOG_LEVEL || 'info';
  const shared: Env = {
    PATH: env.PATH ?? process.env.PATH,
    HOME: env.HOME ?? process.env.HOME,
    NODE_ENV: env.NODE_ENV || 'production',
    HOST: host,
    LOG_LEVEL: logLevel,
    DATABASE_URL: infra.databaseUrl,
    DB_POOL_SIZE: env.DB_POOL_SIZE || '5',
    KAFKA_BROKERS: infra.kafkaBrokers,
    KAFKA_NAMESPACE: o.kafkaNamespace ?? env.KAFKA_NAMESPACE ?? '',
    REDIS_URL: infra.redisUrl,
    BULLMQ_PREFIX: env.BULLMQ_PREFIX || 'countinghouse',
    JWT_PUBLIC_KEY_FILE: keys.publicKeyFile,
    // services answer only requests the gateway signed (health routes aside)
    GATEWAY_PUBLIC_KEY_FILE: keys.gatewayPublicKeyFile,
    DEMO_MODE: env.DEMO_MODE || 'true',
    PUBLIC_URL: publicUrl,
    ADMIN_USERNAME: env.ADMIN_USERNAME || 'admin',
    // Forwarded client addresses are believed from the gateway's address only (it runs on this host).
    TRUSTED_PROXIES: env.TRUSTED_PROXIES || '127.0.0.1,::1',
    // The Kafka client's TLS, SASL and topic settings, when the person set them (the gateway's pass through its schema).
    ...Object.fromEntries(Object.keys(KafkaClientConfigProperties).flatMap((k) => (env[k] ? [[k, env[k]]] : []))),
  };

  let bundles: Map<string, string> | null = null;
  const children: Child[] = [];
  const spawnChild = (c: Child) => {
    const compiled = bundles?.get(c.entry);
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
      o.onOutput?.(c.info.name, s);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    c.exited = new Promise((r) =>
      child.once('exit', (code, signal) => {
        r();
        onExit(c, code, signal);
      }),
    );
    c.info.pid = child.pid ?? 0;
    c.startedAt = Date.now();
  };
  // Once started, a process that exits on its own is started again after a backoff (restartDelay), and
  // the launcher says so; one stopped on purpose (kill(), stop(), Ctrl-C) stays stopped.
  let supervising = false;
  const onExit = (c: Child, code: number | null, signal: NodeJS.Signals | null) => {
    if (!supervising || stopped || c.held || o.restartCrashed === false) return;
    // (a Ctrl-C reaches the children with the launcher: its handler calls stop() within moments)
    setTimeout(() => superviseExit(c, code, signal), 200).unref();
  };
  const superviseExit = (c: Child, code: number | null, signal: NodeJS.Signals | null) => {
    if (stopped || c.held) return;
    const { delayMs, nextAttempt } = restartDelay(c.attempt, Date.now() - c.startedAt);
    c.attempt = nextAttempt;
    const at = new Date();
    log(
      `${c.info.name} (pid ${c.info.pid}) exited ${signal ? `on ${signal}` : `with code ${code}`} at ${at.toISOString().slice(11, 19)} UTC; restarting it in ${delayMs / 1000} s (restart ${nextAttempt})`,
    );
    c.restartTimer = setTimeout(() => {
      c.restartTimer = null;
      if (stopped || c.held) return;
      spawnChild(c);
      writeProcesses();
      log(`${c.info.name} restarted (pid ${c.info.pid})`);
    }, delayMs);
    c.restartTimer.unref();
  };
  const makeChild = (name: string, service: string, kind: ProcessInfo['kind'], entry: string, port: number, childEnv: Env): Child => {
    const c: Child = {
      info: { name, service, pid: 0, port, url: `http://${host}:${port}`, kind },
      entry,
      env: { ...childEnv, PORT: String(port) },
      child: null,
      out: '',
      log: createWriteStream(join(dataDir, 'logs', `${name}.log`), { flags: 'a' }),
      exited: Promise.resolve(),
      held: false,
      startedAt: Date.now(),
      attempt: 0,
      restartTimer: null,
    };
    children.push(c);
    spawnChild(c);
    return c;
  };

  const writeProcesses = () =>
    writeFileSync(
      join(dataDir, 'processes.json'),
      `${JSON.stringify({ url: baseUrl, startedAt: new Date(t0).toISOString(), processes: [...infraInfo, ...children.map((c) => c.info)] }, null, 2)}\n`,
    );

  const stopChild = async (c: Child, signal: NodeJS.Signals = 'SIGTERM') => {
    const child = c.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await c.exited;
    clearTimeout(t);
  };

  // Should this process end without stop() (an uncaught error), its children do not outlive it.
  const killAll = () => {
    for (const c of children) if (c.child && c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  };
  process.once('exit', killAll);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', killAll);
    for (const c of children) if (c.restartTimer) clearTimeout(c.restartTimer);
    const gateway = children.filter((c) => c.info.kind === 'gateway');
    await Promise.all(gateway.map((c) => stopChild(c)));
    await Promise.all(children.filter((c) => c.info.kind !== 'gateway').map((c) => stopChild(c)));
    for (const c of children) c.log.end();
    infraStop?.();
  };

  // A Ctrl-C while starting (o.signal): the waits below stop at once, and everything started so far,
  // infrastructure included, is stopped before the start rejects.
  const onAbort = () => log('cancelled: stopping what has started…');
  o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    throwIfCancelled(o.signal);
    // the compiled entry points (npm run build:services), built here when missing or stale; LAUNCH_WITH=tsx runs the sources
    if (env.LAUNCH_WITH !== 'tsx') bundles = await ensureProcessesBuilt({ root: repoRoot, log });
    // The first process of every service, then the further replicas: a replica joining a consumer group
    // whose first member is itself still starting makes both wait for the rebalance (up to the session
    // timeout), while a running member answers it within a heartbeat.
    for (const wave of [plan.filter((p) => p.index === 1), plan.filter((p) => p.index > 1)]) {
      const started = wave.map((p) => {
        // A service's variables the person set (e.g. STRIPE_SECRET_KEY, SMTP_URL) are passed on; ours win.
        const own: Env = {};
        for (const key of Object.keys(p.spec.schema.properties)) if (env[key] !== undefined) own[key] = env[key];
        const name = p.spec.replicated ? `${p.spec.name}-${p.index}` : p.spec.name;
        const database = serviceDbUrls ? { DATABASE_URL: serviceDbUrls[p.spec.name]!, DATABASE_MIGRATION_URL: infra.databaseUrl } : {};
        const given: Env = {};
        for (const key of Object.keys(p.spec.schema.properties)) if (offered[key] !== undefined) given[key] = offered[key];
        return makeChild(name, p.spec.name, 'service', p.spec.entry, p.port, { ...own, ...shared, ...database, ...given });
      });
      writeProcesses();
      await Promise.all(started.map((c) => waitReady(c, `${c.info.url}/health/ready`, 150_000, o.signal)));
      log(`${started.map((c) => c.info.name).join(', ')} ready (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    }

    const gatewayEnv: Env = {};
    for (const key of Object.keys(GatewayConfigSchema.properties)) if (env[key] !== undefined) gatewayEnv[key] = env[key];
    Object.assign(gatewayEnv, {
      PATH: shared.PATH,
      HOME: shared.HOME,
      NODE_ENV: shared.NODE_ENV,
      HOST: env.HOST || '127.0.0.1',
      LOG_LEVEL: logLevel,
      KAFKA_BROKERS: shared.KAFKA_BROKERS,
      KAFKA_NAMESPACE: shared.KAFKA_NAMESPACE,
      // the sign-in limit: one count for every gateway, kept across a gateway's restart; keys of this product's own
      REDIS_URL: shared.REDIS_URL,
      REDIS_KEY_PREFIX: shared.BULLMQ_PREFIX,
      JWT_PUBLIC_KEY_FILE: keys.publicKeyFile,
      GATEWAY_SIGNING_KEY_FILE: keys.gatewayPrivateKeyFile,
      DEMO_MODE: shared.DEMO_MODE,
      FRONTEND_DIR: frontendDir,
      ...Object.fromEntries(SERVICE_TABLE.map((s) => [`${s.name.toUpperCase()}_URL`, urls(s.name)])),
    });
    const gw = makeChild('gateway', 'gateway', 'gateway', GATEWAY_ENTRY, gatewayPort, gatewayEnv);
    writeProcesses();
    await waitReady(gw, `http://127.0.0.1:${gatewayPort}/health/ready`, 60_000, o.signal);
  } catch (err) {
    o.signal?.removeEventListener('abort', onAbort);
    await stop();
    // (a Ctrl-C reaches the children too: their exits are the cancellation, not a failure)
    const failure = o.signal?.aborted ? new StartCancelled() : (err as Error);
    // identity may have made the first administrator before another process failed: its one showing must not be lost
    const made = ADMIN_LINE.exec(children.find((c) => c.info.service === 'identity')?.out ?? '')?.[1];
    if (made) failure.message += `\n(The first administrator was created meanwhile: password "${made}", shown once.)`;
    throw failure;
  }

  o.signal?.removeEventListener('abort', onAbort);
  supervising = true;
  // The first administrator: identity prints a generated password once, on the start that made it.
  const identity = children.find((c) => c.info.service === 'identity')!;
  const generated = ADMIN_LINE.exec(identity.out)?.[1] ?? null;

  // A fresh data folder in demo mode gets the demo practice, as with `npm start` (once: a marker remembers it).
  let demoPeople = 0;
  let demoPassword: string | null = null;
  const marker = join(dataDir, 'demo-seeded');
  if (seedDemo) {
    const pool = createPool(infra.databaseUrl, 2);
    try {
      const db: Db = createDb(pool);
      const seeded = await seedIdentityDemo(db, { nodeEnv: env.NODE_ENV ?? 'development', password: env.DEMO_PASSWORD || undefined });
      demoPeople = seeded.created;
      demoPassword = seeded.generatedPassword ?? null;
      await seedCrmDemo(db);
      await seedBillingDemo(db, demoClientFacts());
      writeFileSync(marker, new Date().toISOString());
    } catch (err) {
      // stop what started, infrastructure included, which would otherwise outlive the launcher (its
      // servers run in sessions of their own)
      await pool.end().catch(() => {});
      await stop();
      throw err;
    }
    await pool.end();
  }
  log(`ready (${((Date.now() - t0) / 1000).toFixed(1)} s)`);

  return {
    baseUrl,
    dataDir,
    databaseUrl: infra.databaseUrl,
    generatedAdminPassword: generated,
    demoPeople,
    demoPassword,
    processes: () => [...infraInfo, ...children.map((c) => ({ ...c.info }))],
    output: (name) => children.find((c) => c.info.name === name)?.out ?? '',
    async kill(name, signal = 'SIGKILL') {
      const c = children.find((x) => x.info.name === name);
      if (!c) throw new Error(`no process ${name}`);
      c.held = true;
      if (c.restartTimer) clearTimeout(c.restartTimer);
      await stopChild(c, signal);
    },
    async restart(name, o = {}) {
      const c = children.find((x) => x.info.name === name);
      if (!c) throw new Error(`no process ${name}`);
      c.held = true;
      if (c.restartTimer) clearTimeout(c.restartTimer);
      await stopChild(c);
      c.held = false;
      c.attempt = 0;
      spawnChild(c);
      writeProcesses();
      if (o.waitReady !== false) await waitReady(c, `${c.info.url.replace('localhost', '127.0.0.1')}/health/ready`, 60_000);
    },
    stop,
  };
}

async function waitReady(c: Child, url: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    throwIfCancelled(signal);
    if (c.child && (c.child.exitCode !== null || c.child.signalCode !== null)) {
      throw new Error(
        `${c.info.name} exited (${c.child.exitCode ?? c.child.signalCode}) before it was ready:\n${c.out.trim().split('\n').slice(-15).join('\n')}`,
      );
    }
    const ok = await fetch(url, { signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(2000)]) : AbortSignal.timeout(2000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${c.info.name} not ready after ${timeoutMs / 1000} s (${url}):\n${c.out.trim().split('\n').slice(-15).join('\n')}`);
}

export { DEMO_PEOPLE };
