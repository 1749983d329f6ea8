import {
  ConfigError,
  createLogger,
  createRuntime,
  generateSigningKeys,
  parseConfig,
  TokenSigner,
  closeOnSignals,
} from '@countinghouse/kit';
import { demoClientFacts, linkedClientUserIds, seedCrmDemo } from '@countinghouse/crm';
import { seedDeadlinesDemo } from '@countinghouse/deadlines';
import { seedBillingDemo, stripeOptionsFromEnv } from '@countinghouse/billing';
import { assertDemoSeedAllowed, demoSignIns, ensureInitialAdmin, formatDemoSignIns, seedIdentityDemo } from '@countinghouse/identity';
import { parseIntegrationsConfig } from '@countinghouse/integrations';
import { Type } from '@sinclair/typebox';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { leaveStopSignalsToTheServer, startEmbeddedPostgres, type EmbeddedDb } from './embedded-postgres.js';
import { composeAllInOne } from './compose.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export const AllInOneConfigSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], { default: 'development' }),
  HOST: Type.String({ default: '127.0.0.1' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  LOG_LEVEL: Type.String({ default: 'info' }),
  DATA_DIR: Type.String({ default: '.data' }),
  /** When set, this PostgreSQL is used and no embedded server starts. */
  DATABASE_URL: Type.String({ default: '' }),
  EMBEDDED_PG_PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 54329 }),
  ADMIN_USERNAME: Type.String({ default: 'admin' }),
  ADMIN_PASSWORD: Type.String({ default: '' }),
  DEMO_MODE: Type.Boolean({ default: true }),
  /** Unset: seed a fresh data folder unless NODE_ENV=production; true with production is refused. */
  SEED_DEMO: Type.Optional(Type.Boolean()),
  /** The demo people's shared password; unset, one is generated and printed once. */
  DEMO_PASSWORD: Type.String({ default: '' }),
  PUBLIC_URL: Type.String({ default: '' }),
  COOKIE_SECURE: Type.Boolean({ default: false }),
  PRACTICE_NAME: Type.String({ default: 'Countinghouse Accountants' }),
  PRACTICE_PHONE: Type.String({ default: '020 7946 0321' }),
  PRACTICE_EMAIL: Type.String({ default: 'hello@countinghouse.co.uk' }),
  FRONTEND_DIR: Type.String({ default: '' }),
  SIGN_IN_RATE_LIMIT: Type.Integer({ minimum: 1, default: 10 }),
  /** Strict-Transport-Security max-age in seconds (behind HTTPS only); 0: not sent. */
  HSTS_MAX_AGE: Type.Integer({ minimum: 0, maximum: 63_072_000, default: 0 }),
  SMTP_URL: Type.String({ default: '' }),
  MAIL_FROM: Type.String({ default: '' }),
  /** GoHighLevel (LeadConnector) lead import: both or neither. */
  GHL_API_KEY: Type.String({ default: '' }),
  GHL_LOCATION_ID: Type.String({ default: '' }),
  GHL_BASE_URL: Type.String({ default: '' }),
  /** Video scripts: an OpenAI-compatible provider; without a key the built-in template generator writes them. */
  OPENAI_API_KEY: Type.String({ default: '' }),
  OPENAI_BASE_URL: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
  OPENAI_MODEL: Type.String({ default: '' }),
  OPENAI_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 600_000, default: 60_000 }),
  /** The durable job queue: how often idle workers look for jobs enqueued by another instance (a job enqueued here starts at once). */
  JOBS_POLL_MS: Type.Integer({ minimum: 500, maximum: 60_000, default: 1000 }),
  /** How often schedules are checked for a due slot (a slot is a minute: a check starts it within this). */
  JOBS_SCHEDULE_CHECK_MS: Type.Integer({ minimum: 200, maximum: 60_000, default: 15_000 }),
  /** Companies House Public Data API; without a key the company fields of a client are entered by hand. */
  COMPANIES_HOUSE_API_KEY: Type.String({ default: '' }),
  COMPANIES_HOUSE_BASE_URL: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
});

function loadKeys(dataDir: string) {
  const dir = join(dataDir, 'keys');
  const priv = join(dir, 'jwt-ed25519.pem');
  const pub = join(dir, 'jwt-ed25519.pub.pem');
  if (!existsSync(priv) || !existsSync(pub)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const k = generateSigningKeys();
    writeFileSync(priv, k.privateKeyPem, { mode: 0o600 });
    writeFileSync(pub, k.publicKeyPem, { mode: 0o644 });
  }
  return { privateKeyPem: readFileSync(priv, 'utf8'), publicKeyPem: readFileSync(pub, 'utf8') };
}

/** The documents' view-link secret: random once, kept in the data folder so links survive a restart. */
function loadLinkSecret(dataDir: string): string {
  const file = join(dataDir, 'keys', 'documents-link.secret');
  if (!existsSync(file)) {
    mkdirSync(join(dataDir, 'keys'), { recursive: true, mode: 0o700 });
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

/** The integrations' token key: 32 random bytes once, kept in the data folder so stored grants survive a restart. */
function loadIntegrationsKey(dataDir: string, name = 'integrations-tokens.key'): Buffer {
  const file = join(dataDir, 'keys', name);
  if (!existsSync(file)) {
    mkdirSync(join(dataDir, 'keys'), { recursive: true, mode: 0o700 });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

/** The all-in-one server: embedded PostgreSQL, every service plugin in-process, the gateway, the UI. */
export async function startAllInOne(env: Record<string, string | undefined> = process.env) {
  let config;
  try {
    config = parseConfig(AllInOneConfigSchema, env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
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
  // Stripe is all or nothing: STRIPE_SECRET_KEY with STRIPE_WEBHOOK_SECRET (optional STRIPE_API_BASE).
  let stripe;
  try {
    stripe = stripeOptionsFromEnv(env);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(78);
  }
  let integrationsConfig;
  try {
    integrationsConfig = parseIntegrationsConfig(env);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(78);
  }
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
    cookieSecure: config.COOKIE_SECURE,
    signInMax: config.SIGN_IN_RATE_LIMIT,
    hstsMaxAge: config.HSTS_MAX_AGE,
    smtpUrl: config.SMTP_URL,
    mailFrom: config.MAIL_FROM,
    ghl: { apiKey: config.GHL_API_KEY, locationId: config.GHL_LOCATION_ID, baseUrl: config.GHL_BASE_URL || undefined },
    stripe,
    documentsStorageDir: join(dataDir, 'documents'),
    documentsLinkSecret: loadLinkSecret(dataDir),
    integrationsEncryptionKey: integrationsConfig.INTEGRATIONS_ENCRYPTION_KEY ? undefined : loadIntegrationsKey(dataDir),
    integrationsConfig,
    // identity's second-factor secrets at rest (issue 32): a key made once beside the integrations' one
    identityEncryptionKey: loadIntegrationsKey(dataDir, 'identity-secrets.key'),
    production: config.NODE_ENV === 'production',
    openai: config.OPENAI_API_KEY
      ? { apiKey: config.OPENAI_API_KEY, baseUrl: config.OPENAI_BASE_URL, model: config.OPENAI_MODEL, timeoutMs: config.OPENAI_TIMEOUT_MS }
      : null,
    companiesHouse: { apiKey: config.COMPANIES_HOUSE_API_KEY, baseUrl: config.COMPANIES_HOUSE_BASE_URL || undefined },
    publicConfig: () => ({
      demoMode: config.DEMO_MODE,
      maintenance: false,
      practice: { name: config.PRACTICE_NAME, phone: config.PRACTICE_PHONE, email: config.PRACTICE_EMAIL },
    }),
  });

  const made = await ensureInitialAdmin(runtime.db, { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD || undefined });
  if (made.generatedPassword) {
    process.stdout.write(
      `\n  First administrator created (sign in at /admin/login).\n  Username: ${config.ADMIN_USERNAME}\n  Password: ${made.generatedPassword}\n  (shown once; set ADMIN_PASSWORD on a fresh data folder to choose it)\n\n`,
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
    process.stderr.write(`\nCountinghouse did not start: ${(err as Error)?.message ?? String(err)}\n`);
    if (process.env.LOG_LEVEL === 'debug') process.stderr.write(`${(err as Error)?.stack ?? ''}\n`);
    else process.stderr.write('(LOG_LEVEL=debug shows the details)\n');
    process.exit(1);
  });
  leaveStopSignalsToTheServer();
  closeOnSignals(started.app, started.close);
}
