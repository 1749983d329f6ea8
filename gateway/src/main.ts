import {
  closeOnSignals,
  createLogger,
  parseConfig,
  readPem,
  RevocationList,
  TokenVerifier,
  ConfigError,
  InProcessBus,
} from '@countinghouse/kit';
import { SERVICES, TOPICS, type EventData, type EventEnvelope } from '@countinghouse/proto';
import { KafkaBus } from '@countinghouse/kit';
import { Type } from '@sinclair/typebox';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { buildGateway } from './gateway.js';
import { LiveSettings } from './live-settings.js';

const GatewayConfigSchema = Type.Object({
  HOST: Type.String({ default: '0.0.0.0' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  LOG_LEVEL: Type.String({ default: 'info' }),
  JWT_PUBLIC_KEY: Type.String({ default: '' }),
  JWT_PUBLIC_KEY_FILE: Type.String({ default: '' }),
  KAFKA_BROKERS: Type.String({ minLength: 1 }),
  // Each service's base URL; a service left out is not routed (its paths answer 404).
  IDENTITY_URL: Type.String({ pattern: '^https?://' }),
  CRM_URL: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
  DOCUMENTS_URL: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
  BILLING_URL: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
  INTEGRATIONS_URL: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
  MEDIA_URL: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
  SETTINGS_URL: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
  NOTIFICATIONS_URL: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
  DEADLINES_URL: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
  DEMO_MODE: Type.Boolean({ default: false }),
  PRACTICE_NAME: Type.String({ default: 'Countinghouse Accountants' }),
  PRACTICE_PHONE: Type.String({ default: '020 7946 0321' }),
  PRACTICE_EMAIL: Type.String({ default: 'hello@countinghouse.co.uk' }),
  FRONTEND_DIR: Type.String({ default: '' }),
  SIGN_IN_RATE_LIMIT: Type.Integer({ minimum: 1, default: 10 }),
  TRUST_PROXY: Type.Boolean({ default: false }),
});

let config;
try {
  config = parseConfig(GatewayConfigSchema);
  if (!config.JWT_PUBLIC_KEY && !config.JWT_PUBLIC_KEY_FILE)
    throw new ConfigError('Invalid configuration:\n  - JWT_PUBLIC_KEY or JWT_PUBLIC_KEY_FILE: required');
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`gateway: ${err.message}\n`);
    process.exit(78);
  }
  throw err;
}
const logger = createLogger('gateway', config.LOG_LEVEL);
const revocations = new RevocationList();
const verifier = await TokenVerifier.fromPem(readPem(config.JWT_PUBLIC_KEY, config.JWT_PUBLIC_KEY_FILE), revocations);

// The gateway learns of revoked sessions from identity's topic, like every service.
const instanceId = `gateway-${process.pid}-${randomUUID().slice(0, 8)}`;
const bus = config.KAFKA_BROKERS
  ? new KafkaBus({ brokers: config.KAFKA_BROKERS.split(','), clientId: 'gateway', logger, instanceId })
  : new InProcessBus();
await bus.subscribe({
  group: 'gateway.revocations',
  topics: [TOPICS.identity],
  broadcast: { sinceMs: 20 * 60 * 1000 },
  handler: async (e: EventEnvelope) => {
    if (e.type === 'identity.session_revoked') {
      const d = e.data as EventData<'identity.session_revoked'>;
      revocations.revokeSession(d.sessionId, d.until);
    } else if (e.type === 'identity.subject_access_revoked') {
      const d = e.data as EventData<'identity.subject_access_revoked'>;
      revocations.revokeSubjectBefore(d.subjectId, d.issuedBefore);
    }
  },
});

// The practice settings and the maintenance switch: loaded from the settings service, kept current by
// its settings.changed events (broadcast: every gateway instance sees every change).
const settings = new LiveSettings({ name: config.PRACTICE_NAME, phone: config.PRACTICE_PHONE, email: config.PRACTICE_EMAIL });
await settings.subscribe(bus, logger);
const stopLoading = new AbortController();
if (config.SETTINGS_URL) void settings.loadFrom(config.SETTINGS_URL, logger, stopLoading.signal);

const configured: Record<(typeof SERVICES)[number], string> = {
  identity: config.IDENTITY_URL,
  crm: config.CRM_URL,
  documents: config.DOCUMENTS_URL,
  billing: config.BILLING_URL,
  integrations: config.INTEGRATIONS_URL,
  media: config.MEDIA_URL,
  settings: config.SETTINGS_URL,
  notifications: config.NOTIFICATIONS_URL,
  deadlines: config.DEADLINES_URL,
};
const upstreamUrls = Object.fromEntries(Object.entries(configured).filter(([, url]) => url));
const app = await buildGateway({
  logger,
  verifier,
  upstreams: upstreamUrls,
  trustProxy: config.TRUST_PROXY,
  frontendDir: config.FRONTEND_DIR || join(fileURLToPath(new URL('../../', import.meta.url)), 'frontend', 'dist'),
  signInMax: config.SIGN_IN_RATE_LIMIT,
  healthChecks: {
    bus: () => bus.isReady(),
    // Not ready until the settings arrived, so a load balancer never sends visitors past a maintenance switch.
    ...(config.SETTINGS_URL ? { practiceSettings: async () => settings.isLoaded() } : {}),
    ...Object.fromEntries(
      Object.entries(upstreamUrls).map(([name, url]) => [
        name,
        async () => (await fetch(`${url}/health/live`, { signal: AbortSignal.timeout(2000) }).catch(() => null))?.ok ?? false,
      ]),
    ),
  },
  publicConfig: () => settings.publicConfig(config.DEMO_MODE),
});
closeOnSignals(app, async () => {
  stopLoading.abort();
  await bus.close();
});
await app.listen({ port: config.PORT, host: config.HOST });
