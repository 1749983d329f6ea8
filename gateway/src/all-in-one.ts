import {
  ConfigError,
  createLogger,
  createRuntime,
  generateSigningKeys,
  dataFolderEnv,
  errorMessage,
  everyConfigProblem,
  keptKeyPair,
  parseConfig,
  parseServicesConfig,
  TokenSigner,
  type ServiceDescriptor,
  closeOnSignals,
} from '@countinghouse/kit';
import { demoClientFacts, linkedClientUserIds, seedCrmDemo } from '@countinghouse/crm';
import { seedDeadlinesDemo } from '@countinghouse/deadlines';
import { seedBillingDemo } from '@countinghouse/billing';
import { assertDemoSeedAllowed, demoSignIns, ensureInitialAdmin, formatDemoSignIns, seedIdentityDemo } from '@countinghouse/identity';
import { Type, type Static } from '@sinclair/typebox';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { leaveStopSignalsToTheServer, startEmbeddedPostgres, type EmbeddedDb } from './embedded-postgres.js';
import { composeAllInOne } from './compose.js';
import { loadServices } from './services.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The all-in-one launcher's own settings; each service's come from its descriptor (parseAllInOneConfig). */
export const AllInOneConfigSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], { default: 'development' }),
  HOST: Type.String({ default: '127.0.0.1' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  LOG_LEVEL: Type.String({ default: 'info' }),
  DATA_DIR: Type.String({ default: '.data' }),
  /** When set, this PostgreSQL is used and no embedded server starts. */
  DATABASE_URL: Type.String({ default: '' }),
  EMBEDDED_PG_PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 54329 }),
  DEMO_MODE: Type.Boolean({ default: true }),
  /** Unset: seed a fresh data folder unless NODE_ENV=production; true with production is refused. */
  SEED_DEMO: Type.Optional(Type.Boolean()),
  /** The demo people's shared password; unset, one is generated and printed once. */
  DEMO_PASSWORD: Type.String({ default: '' }),
  PUBLIC_URL: Type.String({ default: '' }),
  FRONTEND_DIR: Type.String({ default: '' }),
  SIGN_IN_RATE_LIMIT: Type.Integer({ minimum: 1, default: 10 }),
  /** Strict-Transport-Security max-age in seconds (behind HTTPS only); 0: not sent. */
  HSTS_MAX_AGE: Type.Integer({ minimum: 0, maximum: 63_072_000, default: 0 }),
  /** The durable job queue: how often idle workers look for jobs enqueued by another instance (a job enqueued here starts at once). */
  JOBS_POLL_MS: Type.Integer({ minimum: 500, maximum: 60_000, default: 1000 }),
  /** How often schedules are checked for a due slot (a slot is a minute: a check starts it within this). */
  JOBS_SCHEDULE_CHECK_MS: Type.Integer({ minimum: 200, maximum: 60_000, default: 15_000 }),
});

/**
 * The all-in-one's settings: its own, and every service's with the rules the service's own process
 * applies (its schema and checkConfig), every problem said at once. A setting refused in distributed
 * mode is refused here (issue 27; gateway/test/config-parity.test.ts).
 */
export function parseAllInOneConfig(env: Record<string, string | undefined>, descriptors: readonly ServiceDescriptor[]) {
  let config!: Static<typeof AllInOneConfigSchema>;
  let services!: Map<string, Record<string, unknown>>;
  everyConfigProblem(
    () => (config = parseConfig(AllInOneConfigSchema, env)),
    () => {
      // what the data folder will hand the services (its secrets, its folders) counts as set, as in distributed mode
      const dataDir = parseConfig(Type.Object({ DATA_DIR: AllInOneConfigSchema.properties.DATA_DIR }), env).DATA_DIR;
      services = parseServicesConfig(descriptors, { ...dataFolderEnv(descriptors, env, null, (folder) => join(dataDir, folder)), ...env });
    },
  );
  return { config, services };
}

const text = (v: unknown, dflt: string) => (typeof v === 'string' ? v : dflt);

/** The token signing keys, made once in DATA_DIR/keys (the distributed launcher's files too). */
function loadKeys(dataDir: string) {
  const pair = keptKeyPair(join(dataDir, 'keys'), 'jwt-ed25519', generateSigningKeys);
  return { privateKeyPem: readFileSync(pair.privateKeyFile, 'utf8'), publicKeyPem: readFileSync(pair.publicKeyFile, 'utf8') };
}

/** The all-in-one server: embedded PostgreSQL, every service plugin in-process, the gateway, the UI. */
export async function startAllInOne(env: Record<string, string | undefined> = process.env) {
  const descriptors = await loadServices();
  let config: Static<typeof AllInOneConfigSchema>;
  let services: Map<string, Record<string, unknown>>;
  try {
    ({ config, services } = parseAllInOneConfig(env, descriptors));
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
  const identity = services.get('identity') ?? {};
  const settings = services.get('settings') ?? {};
  const adminUsername = text(identity.ADMIN_USERNAME, 'admin');
  const adminPassword = text(identity.ADMIN_PASSWORD, '');
  // Demo people hold staff roles with one shared password: never in a production deployment.
  if (config.SEED_DEMO === true && config.NODE_ENV === 'production') {
    process.stderr.write(
      'SEED_DEMO=true is refused when NODE_ENV=production: the demo practice gives staff roles to people with a shared password. Unset SEED_DEMO (or set it to false).\n',
    );
    process.exit(78);
  }
  const seedDemo = config.SEED_DEMO ?? config.NODE_ENV !== 'production';
  const demoSeed = { nodeEnv: config.NODE_ENV, password: config.DEMO_PASSWORD || undefined };
  if (seedDemo) assertDemoSeedAllowed(demoSeed); // a bad DEMO_PASSWORD stops the start before anything is created
  const logger = createLogger('countinghouse', config.LOG_LEVEL);
  const dataDir = resolve(repoRoot, config.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  let embedded: EmbeddedDb | null = null;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(dataDir, config.EMBEDDED_PG_PORT, logger);
    databaseUrl = embedded.url;
  }
  const keys = loadKeys(dataDir);
  const publicUrl = config.PUBLIC_URL || `http://localhost:${config.PORT}`;
  const runtime = await createRuntime({
    serviceName: 'all-in-one',
    databaseUrl,
    poolSize: 20,
    publicKeyPem: keys.publicKeyPem,
    logger,
    demoMode: config.DEMO_MODE,
    publicUrl,
    jobsPollingMs: config.JOBS_POLL_MS,
    scheduleTickMs: config.JOBS_SCHEDULE_CHECK_MS,
  });
  const signer = await TokenSigner.fromPem(keys.privateKeyPem);
  const frontendDir = config.FRONTEND_DIR ? resolve(config.FRONTEND_DIR) : join(repoRoot, 'frontend', 'dist');

  const app = await composeAllInOne({
    runtime,
    signer,
    logger,
    frontendDir,
    signInMax: config.SIGN_IN_RATE_LIMIT,
    hstsMaxAge: config.HSTS_MAX_AGE,
    // the services' settings, with the secrets and folders of the data folder (made once, as the distributed launcher's)
    env: { ...dataFolderEnv(descriptors, env, dataDir), ...env },
    production: config.NODE_ENV === 'production',
    publicConfig: () => ({
      demoMode: config.DEMO_MODE,
      maintenance: false,
      practice: {
        name: text(settings.PRACTICE_NAME, ''),
        phone: text(settings.PRACTICE_PHONE, ''),
        email: text(settings.PRACTICE_EMAIL, ''),
      },
    }),
  });

  const made = await ensureInitialAdmin(runtime.db, { username: adminUsername, password: adminPassword || undefined });
  if (made.generatedPassword) {
    process.stdout.write(
      `\n  First administrator created (sign in at /admin/login).\n  Username: ${adminUsername}\n  Password: ${made.generatedPassword}\n  (shown once; set ADMIN_PASSWORD on a fresh data folder to choose it)\n\n`,
    );
  }

  if (seedDemo && made.created) {
    // A fresh data folder in demo mode gets a small demo practice, so a newcomer sees a working product.
    const people = await seedIdentityDemo(runtime.db, demoSeed);
    // Issue 26: the demo accountants have clients, and most clients a tax profile, so My work is real on first start.
    const accountantIds = (people.people ?? []).filter((p) => p.role === 'accountant').map((p) => p.id);
    const crmSeed = await seedCrmDemo(runtime.db, new Date(), { accountantIds });
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
      new Date(),
    );
    if (crmSeed.made) await seedDeadlinesDemo(runtime.db, crmSeed.made, today);
    // billing's side of the same clients (plain data from crm's list; billing publishes no events for them).
    await seedBillingDemo(runtime.db, demoClientFacts());
    if (people.created > 0) {
      const password = people.generatedPassword
        ? `password "${people.generatedPassword}" for all of them (shown once; set DEMO_PASSWORD on a fresh data folder to choose it)`
        : 'the password set in DEMO_PASSWORD for all of them';
      // Only people who can use the product, each next to the page where they sign in (issue 33).
      const signIns = await demoSignIns(runtime.db, await linkedClientUserIds(runtime.db));
      process.stdout.write(
        `  Demo practice sign-ins, ${password}:\n${formatDemoSignIns(signIns)}\n` +
          (signIns.some((p) => p.role === 'client')
            ? ''
            : "    (no demo client has a business yet: sign up at /signup to try the client's side)\n") +
          '\n',
      );
    }
  }

  const close = async () => {
    await runtime.close();
    if (embedded) {
      logger.info('services closed: stopping the embedded PostgreSQL');
      await embedded.stop();
    }
  };
  await app.listen({ port: config.PORT, host: config.HOST });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  logger.info(
    {
      url: `http://localhost:${port}`,
      mode: 'all-in-one',
      node: process.version,
      embeddedPostgres: Boolean(embedded),
      demoMode: config.DEMO_MODE,
    },
    'Countinghouse is running',
  );
  return { app, runtime, port, close };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = await startAllInOne().catch((err: unknown) => {
    // A start-up problem the person can fix (a closed folder, a port in use): the sentence, not a stack.
    process.stderr.write(`\nCountinghouse did not start: ${errorMessage(err)}\n`);
    if (process.env.LOG_LEVEL === 'debug') process.stderr.write(`${err instanceof Error ? (err.stack ?? '') : ''}\n`);
    else process.stderr.write('(LOG_LEVEL=debug shows the details)\n');
    process.exit(1);
  });
  leaveStopSignalsToTheServer();
  closeOnSignals(started.app, started.close);
}
