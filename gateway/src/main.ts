import {
  closeOnSignals,
  createLogger,
  parseConfig,
  readPem,
  RevocationList,
  TokenVerifier,
  ConfigError,
  InProcessBus,
  applyRevocationEvent,
  REVOCATION_REPLAY_MS,
  kafkaClientOptions,
  kafkaDependency,
  waitForDependencies,
  GatewaySigner,
} from '@countinghouse/kit';
import { SERVICES, TOPICS, type EventEnvelope } from '@countinghouse/proto';
import { KafkaBus } from '@countinghouse/kit';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { GatewayConfigSchema, GatewayServiceUrlsSchema, serviceUrlVariable } from './config.js';
import { buildGateway } from './gateway.js';
import { LiveSettings } from './live-settings.js';
import { parseUpstreamList } from './proxy.js';

let config;
let serviceUrls: Record<string, string>;
try {
  // (each service's *_URL: one variable per entry of proto's SERVICES)
  serviceUrls = parseConfig(GatewayServiceUrlsSchema);
  config = parseConfig(GatewayConfigSchema);
  kafkaClientOptions(config); // (fails fast here on a bad TLS/SASL group)
  if (!config.JWT_PUBLIC_KEY && !config.JWT_PUBLIC_KEY_FILE)
    throw new ConfigError('Invalid configuration:\n  - JWT_PUBLIC_KEY or JWT_PUBLIC_KEY_FILE: required');
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`gateway: ${err.message}\n`);
    process.exit(78);
  }
  throw err;
}
const urlOf = (service: string) => serviceUrls[serviceUrlVariable(service)] ?? '';
const logger = createLogger('gateway', config.LOG_LEVEL);
// Every forwarded request is signed with the gateway's own key: services answer nothing else (issue 32).
const signingKey = readPem(config.GATEWAY_SIGNING_KEY, config.GATEWAY_SIGNING_KEY_FILE);
const signer = signingKey ? new GatewaySigner(signingKey) : undefined;
if (!signer) logger.warn('GATEWAY_SIGNING_KEY(_FILE) not set: forwarded requests are not signed (services in production refuse them)');
const revocations = new RevocationList();
const verifier = await TokenVerifier.fromPem(readPem(config.JWT_PUBLIC_KEY, config.JWT_PUBLIC_KEY_FILE), revocations);

// The gateway learns of revoked sessions from identity's topic, like every service: a whole token
// lifetime replayed before it listens (docs/decisions.md).
const instanceId = `gateway-${process.pid}-${randomUUID().slice(0, 8)}`;
// Started before Kafka is up: wait (live, not ready) rather than exit.
if (config.KAFKA_BROKERS)
  await waitForDependencies([kafkaDependency(config.KAFKA_BROKERS.split(','), 'gateway', kafkaClientOptions(config))], {
    logger,
    port: config.PORT,
    host: config.HOST,
  });
const bus = config.KAFKA_BROKERS
  ? new KafkaBus({
      brokers: config.KAFKA_BROKERS.split(','),
      clientId: 'gateway',
      logger,
      instanceId,
      namespace: config.KAFKA_NAMESPACE,
      ...kafkaClientOptions(config),
    })
  : new InProcessBus();
await bus.subscribe({
  group: 'gateway.revocations',
  topics: [TOPICS.identity],
  broadcast: { sinceMs: REVOCATION_REPLAY_MS, awaitReplay: true },
  handler: async (e: EventEnvelope) => applyRevocationEvent(revocations, e),
});

// The practice settings and the maintenance switch: loaded from the settings service, kept current by
// its settings.changed events (broadcast: every gateway instance sees every change).
const settings = new LiveSettings({ name: config.PRACTICE_NAME, phone: config.PRACTICE_PHONE, email: config.PRACTICE_EMAIL });
await settings.subscribe(bus, logger);
const stopLoading = new AbortController();
// (any one replica of the settings service will do)
const settingsUrls = parseUpstreamList(urlOf('settings'));
if (settingsUrls.length > 0) void loadSettings();
async function loadSettings() {
  for (let i = 0; !stopLoading.signal.aborted && !settings.isLoaded(); i++) {
    const one = new AbortController();
    const stop = () => one.abort();
    stopLoading.signal.addEventListener('abort', stop, { once: true });
    const timer = setTimeout(stop, 15_000);
    await settings.loadFrom(settingsUrls[i % settingsUrls.length]!, logger, one.signal);
    clearTimeout(timer);
    stopLoading.signal.removeEventListener('abort', stop);
  }
}

const configured = Object.fromEntries(SERVICES.map((s) => [s, urlOf(s)]));
const jobsUrl = config.JOBS_URL || urlOf('notifications');
const upstreamUrls = Object.fromEntries(Object.entries({ ...configured, jobs: jobsUrl }).filter(([, url]) => url));
const app = await buildGateway({
  logger,
  verifier,
  upstreams: upstreamUrls,
  upstreamOptions: { signer },
  trustProxy: config.TRUST_PROXY,
  frontendDir: config.FRONTEND_DIR || join(fileURLToPath(new URL('../../', import.meta.url)), 'frontend', 'dist'),
  signInMax: config.SIGN_IN_RATE_LIMIT,
  redisUrl: config.REDIS_URL || undefined,
  redisKeyPrefix: config.REDIS_KEY_PREFIX,
  hstsMaxAge: config.HSTS_MAX_AGE,
  // Ready once the practice settings arrived (so a load balancer never sends visitors past a maintenance
  // switch), and then whatever Kafka or one service does: a service down answers 503 on its own routes
  // only, Kafka down delays events, and neither is cured by taking every gateway out of the load
  // balancer (issue 20). Both are shown in /health/ready's report (each upstream by the proxy's checks).
  healthChecks: urlOf('settings') ? { practiceSettings: async () => settings.isLoaded() } : {},
  healthReport: { bus: () => bus.isReady() },
  publicConfig: () => settings.publicConfig(config.DEMO_MODE),
});
closeOnSignals(app, async () => {
  stopLoading.abort();
  await bus.close();
});
// (its settings consumer joins in the background: it answers once joined, as a service does)
await bus.joined();
await app.listen({ port: config.PORT, host: config.HOST });
logger.info({ service: 'gateway', node: process.version }, 'gateway is running');
