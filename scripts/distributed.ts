// The distributed product on one machine: PostgreSQL, Redis, Kafka and MinIO (infra/ launchers, on
// 127.0.0.1), every service as its own Node process (crm and documents REPLICAS times), and the gateway
// serving the UI. `npm run start:distributed` (scripts/start-distributed.ts) runs it in the foreground;
// the tests start it through startDistributed() with their own infrastructure.
//
// The services are proto's SERVICES, each described by its src/service.ts (the kit's defineService): a
// new service is a folder and a line there. What a service is given beyond the shared settings follows
// from its settings schema: a variable the launcher offers (a key file, the settings service's URL, the
// object store, a data-folder secret) is passed to each service that declares it.
//
// Its parts, under scripts/distributed/: ports.ts (free ports), infra.ts (the infra/ launchers),
// keys.ts (signing keys, the services' database roles), environment.ts (what each process is given),
// processes.ts (spawning, output, stopping, restarting a process that exits on its own), readiness.ts
// (waiting until ready, a cancelled start), restarts.ts (the restart backoff). This file is the start
// itself, step by step: startDistributed at the end.
import { createDb, createPool, dataFolderEnv, type Db } from '@countinghouse/kit';
import { seedBillingDemo } from '@countinghouse/billing';
import { demoClientFacts, seedCrmDemo } from '@countinghouse/crm';
import { assertDemoSeedAllowed, DEMO_PEOPLE, seedIdentityDemo } from '@countinghouse/identity';
import { Type, type TObject } from '@sinclair/typebox';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureProcessesBuilt } from './build-processes.js';
import { loadServices } from '../gateway/src/services.js';
import { gatewayEnv, serviceEnv, sharedEnv } from './distributed/environment.js';
import { startInfra } from './distributed/infra.js';
import { ensureServiceRoles, loadKeys, type LaunchKeys } from './distributed/keys.js';
import { freePort, portFree } from './distributed/ports.js';
import { Processes } from './distributed/processes.js';
import { StartCancelled, throwIfCancelled, waitReady } from './distributed/readiness.js';
import { repoRoot } from './distributed/repo-root.js';

export { repoRoot };
export { ephemeralRange, freePort } from './distributed/ports.js';
export { ensureServiceRoles } from './distributed/keys.js';
export { StartCancelled } from './distributed/readiness.js';
export { RESTART_BACKOFF, restartDelay } from './distributed/restarts.js';

export type Env = Record<string, string | undefined>;

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

/** Seconds since t0, for the progress lines. */
const since = (t0: number) => ((Date.now() - t0) / 1000).toFixed(1);

/** What the options and the environment decide, checked before anything starts. */
interface Launch {
  env: Env;
  log: (line: string) => void;
  t0: number;
  dataDir: string;
  replicas: number;
  frontendDir: string;
  gatewayPort: number;
  host: string;
  baseUrl: string;
  publicUrl: string;
  seedDemo: boolean;
}

/** One process of a service, its port chosen up front. */
interface Planned {
  spec: ServiceSpec;
  index: number;
  port: number;
}

/** What startInfrastructure returns: the servers, their processes (none when given) and how to stop them. */
interface StartedInfra {
  infra: Infra;
  info: ProcessInfo[];
  stop: (() => void) | null;
}

/** Check the options and the environment: a start that would fail is refused before anything runs. */
async function checkOptions(o: DistributedOptions): Promise<Launch> {
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
  return { env, log, t0, dataDir, replicas, frontendDir, gatewayPort, host, baseUrl, publicUrl, seedDemo };
}

/** The infrastructure given (tests), else PostgreSQL, Redis, Kafka and MinIO started with infra/. */
async function startInfrastructure(l: Launch, o: DistributedOptions): Promise<StartedInfra> {
  if (o.infra) return { infra: o.infra, info: [], stop: null };
  const s = await startInfra(l.dataDir, l.log, o.signal);
  l.log(`infrastructure ready (${since(l.t0)} s)`);
  return s;
}

/** The signing keys, and each service's database URL on its own role (null: every one as the owner). */
async function keysAndRoles(l: Launch, infra: Infra): Promise<{ keys: LaunchKeys; serviceDbUrls: Record<string, string> | null }> {
  const keys = loadKeys(l.dataDir);
  // Each service on its own role, limited to its schemas (DB_SERVICE_ROLES=false: every one as the owner).
  const serviceDbUrls = bool(l.env.DB_SERVICE_ROLES, true)
    ? await ensureServiceRoles(
        infra.databaseUrl,
        SERVICE_TABLE.map((s) => s.name),
        join(l.dataDir, 'keys'),
      )
    : null;
  return { keys, serviceDbUrls };
}

// every process's port, chosen up front: identity, media and the gateway need the others' URLs
async function planPorts(replicas: number): Promise<Planned[]> {
  const plan: Planned[] = [];
  for (const spec of SERVICE_TABLE) {
    const n = spec.replicated ? replicas : 1;
    for (let i = 1; i <= n; i++) plan.push({ spec, index: i, port: await freePort() });
  }
  return plan;
}

/** A service's processes' URLs, comma-separated. */
const urlsOf = (plan: Planned[], host: string) => (service: string) =>
  plan
    .filter((p) => p.spec.name === service)
    .map((p) => `http://${host}:${p.port}`)
    .join(',');

/**
 * Every service, wave by wave: the first process of every service, then the further replicas: a replica
 * joining a consumer group whose first member is itself still starting makes both wait for the
 * rebalance (up to the session timeout), while a running member answers it within a heartbeat.
 */
async function startServices(l: Launch, procs: Processes, plan: Planned[], envOf: (p: Planned) => Env, signal?: AbortSignal) {
  for (const wave of [plan.filter((p) => p.index === 1), plan.filter((p) => p.index > 1)]) {
    const started = wave.map((p) => {
      const name = p.spec.replicated ? `${p.spec.name}-${p.index}` : p.spec.name;
      return procs.start(name, p.spec.name, 'service', p.spec.entry, p.port, envOf(p));
    });
    procs.writeProcesses();
    await Promise.all(started.map((c) => waitReady(c, `${c.info.url}/health/ready`, 150_000, signal)));
    l.log(`${started.map((c) => c.info.name).join(', ')} ready (${since(l.t0)} s)`);
  }
}

/** The gateway, once every service is ready; resolves when it is ready too. */
async function startGateway(l: Launch, procs: Processes, env: Env, signal?: AbortSignal) {
  const gw = procs.start('gateway', 'gateway', 'gateway', GATEWAY_ENTRY, l.gatewayPort, env);
  procs.writeProcesses();
  await waitReady(gw, `http://127.0.0.1:${l.gatewayPort}/health/ready`, 60_000, signal);
}

/**
 * Run `start` (the processes' start); should it fail, or the start be cancelled (o.signal),
 * everything started so far is stopped, infrastructure included, before it rejects.
 */
async function stopAllOnFailure(l: Launch, o: DistributedOptions, procs: Processes, start: () => Promise<void>) {
  // A Ctrl-C while starting (o.signal): the waits below stop at once, and everything started so far,
  // infrastructure included, is stopped before the start rejects.
  const onAbort = () => l.log('cancelled: stopping what has started…');
  o.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await start();
  } catch (err) {
    o.signal?.removeEventListener('abort', onAbort);
    await procs.stop();
    // (a Ctrl-C reaches the children too: their exits are the cancellation, not a failure)
    const failure = o.signal?.aborted ? new StartCancelled() : (err as Error);
    // identity may have made the first administrator before another process failed: its one showing must not be lost
    const made = ADMIN_LINE.exec(procs.children.find((c) => c.info.service === 'identity')?.out ?? '')?.[1];
    if (made) failure.message += `\n(The first administrator was created meanwhile: password "${made}", shown once.)`;
    throw failure;
  }
  o.signal?.removeEventListener('abort', onAbort);
}

// A fresh data folder in demo mode gets the demo practice, as with `npm start` (once: a marker remembers it).
async function seedDemoPractice(
  l: Launch,
  databaseUrl: string,
  procs: Processes,
): Promise<{ demoPeople: number; demoPassword: string | null }> {
  let demoPeople = 0;
  let demoPassword: string | null = null;
  const marker = join(l.dataDir, 'demo-seeded');
  if (l.seedDemo) {
    const pool = createPool(databaseUrl, 2);
    try {
      const db: Db = createDb(pool);
      const seeded = await seedIdentityDemo(db, { nodeEnv: l.env.NODE_ENV ?? 'development', password: l.env.DEMO_PASSWORD || undefined });
      demoPeople = seeded.created;
      demoPassword = seeded.generatedPassword ?? null;
      await seedCrmDemo(db);
      await seedBillingDemo(db, demoClientFacts());
      writeFileSync(marker, new Date().toISOString());
    } catch (err) {
      // stop what started, infrastructure included, which would otherwise outlive the launcher (its
      // servers run in sessions of their own)
      await pool.end().catch(() => {});
      await procs.stop();
      throw err;
    }
    await pool.end();
  }
  return { demoPeople, demoPassword };
}

/** Start the distributed product; resolves once the gateway is ready. */
export async function startDistributed(o: DistributedOptions = {}): Promise<Distributed> {
  const l = await checkOptions(o);
  const { infra, info: infraInfo, stop: stopInfra } = await startInfrastructure(l, o);
  const { keys, serviceDbUrls } = await keysAndRoles(l, infra);
  const plan = await planPorts(l.replicas);
  const urls = urlsOf(plan, l.host);
  // What the launcher offers the services; each is given the variables its schema declares.
  const offered: Env = {
    // secrets kept in DATA_DIR/keys (the same files as `npm start`'s) and data folders, unless the person set them
    ...dataFolderEnv(descriptors, l.env, l.dataDir),
    JWT_PRIVATE_KEY_FILE: keys.privateKeyFile,
    // the practice details are read from the settings service at start (any replica will do)
    SETTINGS_URL: urls('settings').split(',')[0],
    ...infra.s3,
  };
  const shared = sharedEnv(l.env, { host: l.host, publicUrl: l.publicUrl, infra, keys, kafkaNamespace: o.kafkaNamespace });
  const database = (p: Planned): Env =>
    serviceDbUrls ? { DATABASE_URL: serviceDbUrls[p.spec.name]!, DATABASE_MIGRATION_URL: infra.databaseUrl } : {};

  const procs = new Processes({
    dataDir: l.dataDir,
    host: l.host,
    baseUrl: l.baseUrl,
    t0: l.t0,
    infraInfo,
    stopInfra,
    log: l.log,
    onOutput: o.onOutput,
    restartCrashed: o.restartCrashed,
  });
  await stopAllOnFailure(l, o, procs, async () => {
    throwIfCancelled(o.signal);
    // the compiled entry points (npm run build:services), built here when missing or stale; LAUNCH_WITH=tsx runs the sources
    if (l.env.LAUNCH_WITH !== 'tsx') procs.bundles = await ensureProcessesBuilt({ root: repoRoot, log: l.log });
    await startServices(l, procs, plan, (p) => serviceEnv(p.spec.schema, l.env, shared, database(p), offered), o.signal);
    const serviceUrls = Object.fromEntries(SERVICE_TABLE.map((s) => [`${s.name.toUpperCase()}_URL`, urls(s.name)]));
    await startGateway(l, procs, gatewayEnv(l.env, shared, keys, l.frontendDir, serviceUrls), o.signal);
  });
  procs.supervise();
  // The first administrator: identity prints a generated password once, on the start that made it.
  const identity = procs.children.find((c) => c.info.service === 'identity')!;
  const generated = ADMIN_LINE.exec(identity.out)?.[1] ?? null;
  const demo = await seedDemoPractice(l, infra.databaseUrl, procs);
  l.log(`ready (${since(l.t0)} s)`);

  return {
    baseUrl: l.baseUrl,
    dataDir: l.dataDir,
    databaseUrl: infra.databaseUrl,
    generatedAdminPassword: generated,
    ...demo,
    processes: () => procs.list(),
    output: (name) => procs.output(name),
    kill: (name, signal) => procs.kill(name, signal),
    restart: (name, ro) => procs.restart(name, ro),
    stop: () => procs.stop(),
  };
}

export { DEMO_PEOPLE };
