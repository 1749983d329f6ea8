import { jobsAdminPlugin, type App, type Runtime, type TokenSigner } from '@countinghouse/kit';
import { billingPlugin, type StripeOptions } from '@countinghouse/billing';
import { amlPlugin } from '@countinghouse/aml';
import { crmPlugin } from '@countinghouse/crm';
import { deadlinesPlugin, type CompaniesHouseOptions } from '@countinghouse/deadlines';
import { engagementPlugin } from '@countinghouse/engagement';
import { requestsPlugin } from '@countinghouse/requests';
import { recordsPlugin } from '@countinghouse/records';
import { documentsPlugin, type DocumentStorage } from '@countinghouse/documents';
import { identityPlugin } from '@countinghouse/identity';
import { integrationsPlugin, parseIntegrationsConfig, type IntegrationsConfig } from '@countinghouse/integrations';
import { mediaPlugin, type OpenAiOptions } from '@countinghouse/media';
import { notificationsPlugin } from '@countinghouse/notifications';
import { readSettingsRow, settingsPlugin, toPublic } from '@countinghouse/settings';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { buildGateway, type PublicConfig } from './gateway.js';
import { LiveSettings } from './live-settings.js';

export interface ComposeOptions {
  runtime: Runtime;
  signer: TokenSigner;
  logger: Logger;
  frontendDir: string | null;
  cookieSecure?: boolean;
  signInMax?: number;
  /** Share the sign-in limit through this Redis (replicas of the app); without it, counted in memory. */
  redisUrl?: string;
  /** HSTS_MAX_AGE in seconds; 0 or absent: no Strict-Transport-Security header. */
  hstsMaxAge?: number;
  smtpUrl?: string;
  mailFrom?: string;
  /**
   * Demo mode, and the practice details written to the settings service on first start (PRACTICE_*).
   * What /api/public/config serves afterwards comes from the settings (maintenance included).
   */
  publicConfig: () => PublicConfig;
  /** Stripe for billing; without it the built-in test checkout (no card is charged). */
  stripe?: StripeOptions | null;
  /** GoHighLevel import of the crm (GHL_API_KEY, GHL_LOCATION_ID, GHL_BASE_URL); empty means not configured. */
  ghl?: { apiKey?: string; locationId?: string; baseUrl?: string };
  /** Uploaded files (the launcher passes DATA_DIR/documents; without it, a throwaway temp folder for tests). */
  documentsStorageDir?: string;
  /** Another documents storage (an object store) instead of the folder. */
  documentsStorage?: DocumentStorage;
  /** Secret of the documents' signed view links (without it, a random one per process: tests only). */
  documentsLinkSecret?: string;
  /** AES-256-GCM key for the integrations' provider tokens (launcher: DATA_DIR/keys; without it, INTEGRATIONS_ENCRYPTION_KEY or a per-process key). */
  integrationsEncryptionKey?: Buffer;
  /** AES-256-GCM key of identity's second-factor secrets (launcher: DATA_DIR/keys; without it a per-process key). */
  identityEncryptionKey?: Buffer;
  /** The integrations' settings, parsed once by the launcher (without them: every default, no provider configured). */
  integrationsConfig?: IntegrationsConfig;
  /** NODE_ENV is production (the integrations then refuse to run without a stored key). */
  production?: boolean;
  /** The AI provider for video scripts; without it (or without a key) the built-in template generator writes them. */
  openai?: OpenAiOptions | null;
  /** Companies House Public Data API (COMPANIES_HOUSE_API_KEY, COMPANIES_HOUSE_BASE_URL); without a key the company fields are entered by hand. */
  companiesHouse?: CompaniesHouseOptions;
  /** Today in London for the deadlines (tests pin it). */
  deadlinesToday?: () => string;
  /** Today in London for the AML files (tests pin it). */
  amlToday?: () => string;
  /** The engagement letters' clock (tests move it). */
  engagementNow?: () => Date;
  /** The client requests' clock (tests move it). */
  requestsNow?: () => Date;
  /** Register the requests' daily schedule (default on; tests drive the job themselves). */
  requestsSchedules?: boolean;
  /** The records service's clock: the retention run's day (tests move it). */
  recordsNow?: () => Date;
  /** Register the daily retention run (default on; tests drive it themselves). */
  recordsSchedules?: boolean;
}

/** The gateway with every service plugin registered in-process: the all-in-one app (also used by tests). */
export async function composeAllInOne(o: ComposeOptions): Promise<App> {
  const base = o.publicConfig();
  const live = new LiveSettings(base.practice);
  await live.subscribe(o.runtime.bus, o.logger);
  const app = await buildGateway({
    logger: o.logger,
    verifier: o.runtime.verifier,
    frontendDir: o.frontendDir,
    healthChecks: o.runtime.healthChecks(),
    signInMax: o.signInMax,
    redisUrl: o.redisUrl,
    hstsMaxAge: o.hstsMaxAge,
    publicConfig: () => live.publicConfig(base.demoMode),
    plugins: [
      // First: the others are registered with the practice details it holds.
      {
        name: 'settings',
        register: async (scope) => {
          await scope.register(settingsPlugin, { runtime: o.runtime, defaults: base.practice });
          const row = await readSettingsRow(o.runtime.db);
          if (row) live.apply(toPublic(row));
        },
      },
      {
        name: 'identity',
        register: async (scope) => {
          await scope.register(identityPlugin, {
            runtime: o.runtime,
            signer: o.signer,
            cookieSecure: o.cookieSecure ?? false,
            smtpUrl: o.smtpUrl,
            mailFrom: o.mailFrom,
            practiceName: () => live.get().name,
            practiceEmail: () => live.get().email,
            secretKey: o.identityEncryptionKey,
            production: o.production,
          });
        },
      },
      { name: 'crm', register: async (scope) => void (await scope.register(crmPlugin, { runtime: o.runtime, ghl: o.ghl })) },
      {
        name: 'documents',
        register: async (scope) =>
          void (await scope.register(documentsPlugin, {
            runtime: o.runtime,
            storageDir: o.documentsStorage ? '' : (o.documentsStorageDir ?? mkdtempSync(join(tmpdir(), 'countinghouse-documents-'))),
            storage: o.documentsStorage,
            linkSecret: o.documentsLinkSecret ?? randomBytes(32).toString('base64url'),
          })),
      },
      {
        name: 'billing',
        register: async (scope) =>
          void (await scope.register(billingPlugin, { runtime: o.runtime, stripe: o.stripe, practice: () => live.practice() })),
      },
      {
        name: 'integrations',
        register: async (scope) =>
          void (await scope.register(integrationsPlugin, {
            runtime: o.runtime,
            config: o.integrationsConfig ?? parseIntegrationsConfig({}),
            encryptionKey: o.integrationsEncryptionKey,
            production: o.production,
          })),
      },
      {
        name: 'media',
        register: async (scope) =>
          void (await scope.register(mediaPlugin, { runtime: o.runtime, practice: () => live.practice(), openai: o.openai })),
      },
      { name: 'notifications', register: async (scope) => void (await scope.register(notificationsPlugin, { runtime: o.runtime })) },
      // The job status page: every queue and schedule lives in this one PostgreSQL.
      { name: 'jobs', register: async (scope) => void (await scope.register(jobsAdminPlugin, { runtime: o.runtime })) },
      {
        name: 'deadlines',
        register: async (scope) =>
          void (await scope.register(deadlinesPlugin, { runtime: o.runtime, companiesHouse: o.companiesHouse, today: o.deadlinesToday })),
      },
      { name: 'aml', register: async (scope) => void (await scope.register(amlPlugin, { runtime: o.runtime, today: o.amlToday })) },
      {
        name: 'engagement',
        register: async (scope) =>
          void (await scope.register(engagementPlugin, { runtime: o.runtime, practice: () => live.practice(), now: o.engagementNow })),
      },
      {
        name: 'requests',
        register: async (scope) =>
          void (await scope.register(requestsPlugin, {
            runtime: o.runtime,
            practice: () => live.practice(),
            now: o.requestsNow,
            schedules: o.requestsSchedules,
          })),
      },
      {
        name: 'records',
        register: async (scope) =>
          void (await scope.register(recordsPlugin, { runtime: o.runtime, now: o.recordsNow, schedules: o.recordsSchedules })),
      },
    ],
  });
  await app.ready();
  return app;
}
