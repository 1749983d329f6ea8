import { authContext, ConfigError, runMigrations, type App, type Runtime } from '@countinghouse/kit';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { hmrcSettings, parseEncryptionKey, providerSettings, type IntegrationsConfig } from './config.js';
import { subscribeClientDirectory } from './consumers/client-directory.js';
import { SCHEMA } from './db/schema.js';
import { TokenCipher } from './domain/token-cipher.js';
import { registerSchedules } from './jobs/schedules.js';
import { integrationRoutes } from './routes/integrations.js';
import { mtdRoutes } from './routes/mtd.js';
import { checkPendingAuthorisations, mtdDeps } from './use-cases/mtd.js';
import { integrationsDeps, KEEP_ALIVE_JOB, MTD_DAILY_JOB, SYNC_JOB } from './use-cases/deps.js';
import { keepGrantsAlive } from './use-cases/keep-grants-alive.js';
import { runSync } from './use-cases/run-sync.js';

export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface IntegrationsPluginOptions {
  runtime: Runtime;
  /** The settings, parsed once by the process's config (main.ts, the all-in-one launcher, a test). */
  config: IntegrationsConfig;
  /**
   * The AES-256-GCM key for provider tokens (32 bytes, or their base64). Without it, the config's
   * INTEGRATIONS_ENCRYPTION_KEY; without that, a random key for this process only (refused in
   * production): tokens stored under it cannot be read after a restart, and such integrations ask to be
   * connected again.
   */
  encryptionKey?: Buffer | string;
  /** NODE_ENV is production: a key must be given. */
  production?: boolean;
  /** The clock of rate budgets, retry times and token expiries (tests inject one). */
  now?: () => Date;
}

function keyFrom(value: Buffer | string): Buffer {
  return typeof value === 'string' ? parseEncryptionKey(value) : value;
}

/** The integrations service as one Fastify plugin: Xero and QuickBooks connect, sync jobs, disconnect. */
export async function integrationsPlugin(app: App, opts: IntegrationsPluginOptions) {
  const { runtime, config } = opts;
  const providers = providerSettings(config, runtime.publicUrl);
  const hmrc = hmrcSettings(config, runtime.publicUrl);
  let key: Buffer;
  if (opts.encryptionKey) key = keyFrom(opts.encryptionKey);
  else if (config.INTEGRATIONS_ENCRYPTION_KEY) key = parseEncryptionKey(config.INTEGRATIONS_ENCRYPTION_KEY);
  else {
    if (opts.production) throw new ConfigError('Invalid configuration:\n  - INTEGRATIONS_ENCRYPTION_KEY: required in production');
    runtime.logger.warn('integrations: no encryption key configured; provider tokens will not survive a restart');
    key = randomBytes(32);
  }
  await runMigrations(runtime.pool, SCHEMA, migrationsFolder);
  const deps = integrationsDeps({
    db: runtime.db,
    relay: runtime.relay(SCHEMA),
    jobs: runtime.jobs,
    logger: runtime.logger,
    cipher: new TokenCipher(key),
    providers,
    syncAttempts: config.INTEGRATIONS_SYNC_ATTEMPTS,
    syncBackoffMs: config.INTEGRATIONS_SYNC_BACKOFF_MS,
    xeroBudget: { perMinute: config.XERO_CALLS_PER_MINUTE, perDay: config.XERO_CALLS_PER_DAY },
    now: opts.now,
  });
  await subscribeClientDirectory(runtime);
  runtime.jobs.process(SYNC_JOB, (payload, ctx) => runSync(deps, payload, ctx));
  runtime.jobs.process(KEEP_ALIVE_JOB, () => keepGrantsAlive(deps), { concurrency: 1 });
  const mtd = mtdDeps({ db: runtime.db, logger: runtime.logger, cipher: deps.cipher, settings: hmrc, now: opts.now });
  runtime.jobs.process(MTD_DAILY_JOB, () => checkPendingAuthorisations(mtd), { concurrency: 1 });
  await registerSchedules(runtime.jobs);
  await app.register(authContext, { verifier: runtime.verifier });
  integrationRoutes(app, deps);
  if (!hmrc.configured) runtime.logger.info('integrations: HMRC not configured; MTD runs offline (nothing is sent to HMRC)');
  mtdRoutes(app, mtd, deps);
}

export { SCHEMA } from './db/schema.js';
export { IntegrationsConfigSchema, parseIntegrationsConfig, type IntegrationsConfig } from './config.js';
export { TokenCipher } from './domain/token-cipher.js';
export { integrationsDeps, KEEP_ALIVE_JOB, SYNC_JOB, type IntegrationsDeps } from './use-cases/deps.js';
export { keepGrantsAlive, type KeepAliveReport } from './use-cases/keep-grants-alive.js';
export { runSync } from './use-cases/run-sync.js';
export { registerSchedules, SCHEDULES } from './jobs/schedules.js';
