import swagger from '@fastify/swagger';
import { type Static } from '@sinclair/typebox';
import { withTextRules } from '@countinghouse/proto';
import { addHealthRoutes, closeOnSignals, createApp, type App } from './app.js';
import {
  BaseConfigSchema,
  ConfigError,
  kafkaClientOptions,
  everyConfigProblem,
  parseConfig,
  readPem,
  trustedProxies,
  type KafkaClientOptions,
} from './config.js';
import { GatewaySignatureVerifier, requireGatewaySignature } from './gateway-signature.js';
import { jobsAdminPlugin } from './jobs/admin-routes.js';
import { createLogger, createRuntime, type Runtime } from './runtime.js';
import { parseServiceConfig, PracticeConfigProperties, type ServiceDescriptor, type ServiceHost } from './descriptor.js';
import { followPracticeSettings, type PracticeDetails } from './live-settings.js';
import { kafkaDependency, postgresDependency, waitForDependencies } from './wait-dependencies.js';

/**
 * The practice's details for a service in its own process: a service whose settings include SETTINGS_URL
 * follows /admin/settings (read at start, then every settings.changed); another has the defaults.
 */
async function followedPractice(name: string, runtime: Runtime, own: Record<string, unknown>, scope: App): Promise<() => PracticeDetails> {
  const text = (k: string, dflt: string) => (typeof own[k] === 'string' && own[k] ? String(own[k]) : dflt);
  const defaults: PracticeDetails = {
    name: text('PRACTICE_NAME', PracticeConfigProperties.PRACTICE_NAME.default),
    phone: text('PRACTICE_PHONE', PracticeConfigProperties.PRACTICE_PHONE.default),
    email: text('PRACTICE_EMAIL', PracticeConfigProperties.PRACTICE_EMAIL.default),
  };
  if (!('SETTINGS_URL' in own)) return () => defaults;
  const followed = await followPracticeSettings({
    service: name,
    bus: runtime.bus,
    logger: runtime.logger,
    defaults,
    settingsUrl: text('SETTINGS_URL', ''),
  });
  scope.addHook('onClose', async () => followed.stop());
  return () => followed.live.practice();
}

/** Register OpenAPI generation for an app; the service's document is served at `/api/<name>/openapi.json`. */
export async function registerOpenApi(app: App, title: string) {
  await app.register(swagger, {
    openapi: {
      info: { title, version: '0.1.0', description: 'Countinghouse API. Errors: { "error": { "code", "message" } }.' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'ch_at' },
        },
      },
      security: [{ bearer: [] }, { cookie: [] }],
    },
    // The document shows the text rule the validators apply (proto's withTextRules, see createApp).
    // Every route also lists the error statuses the platform itself can answer (withPlatformStatuses).
    // (the swagger plugin types a route's schema as Fastify's FastifySchema, whose parts are `unknown`: the
    // four casts below read it as the plain JSON objects it holds, and hand it back in the type it expects)
    transform: ({ schema, url, route }) => {
      const out: Record<string, unknown> = { ...(schema ?? {}) };
      for (const part of ['body', 'querystring', 'params'] as const) {
        const s = (schema as Record<string, unknown> | undefined)?.[part]; // (swagger's FastifySchema)
        if (s && typeof s === 'object') out[part] = withTextRules(s as Record<string, unknown>); // (a JSON object)
      }
      if (!out.hide) out.response = withPlatformStatuses(out.response as Record<string, unknown> | undefined, url, route.method); // (as above)
      return { schema: out as NonNullable<typeof schema>, url }; // (back to swagger's type)
    },
  });
}

const ERROR_BODY = { $ref: 'ErrorBody' };

/**
 * The statuses any route may answer whatever its own code does (issue 32, item 4: every status a route
 * can answer is in its document), added where the route does not list them: 400 (a request target or
 * input that does not validate, malformed JSON), 401 and 403 (the gateway's sign-in and cross-site
 * checks come before the route), 404 and 414 for a path with parameters (nothing by that id, a value too
 * long for the router), 406, 413 and 415 for a body (not multipart where a form is expected, too large,
 * an unsupported content type), 429 (the gateway's sign-in limit), 503 (a service
 * unavailable, the maintenance switch, a server closing). A route with no response schema keeps
 * Fastify's default 200. Never 500: an unexpected error is a bug, and the schemathesis run fails on it.
 */
export function withPlatformStatuses(response: Record<string, unknown> | undefined, url: string, method: string | string[]) {
  const out: Record<string, unknown> = { ...(response ?? { 200: { description: 'Default Response' } }) };
  const methods = (Array.isArray(method) ? method : [method]).map((m) => m.toUpperCase());
  const add = (status: number) => {
    if (!(status in out)) out[status] = ERROR_BODY;
  };
  for (const status of [400, 401, 403, 429, 503]) add(status);
  if (url.includes(':')) {
    add(404);
    add(414); // a path parameter longer than the router takes (Fastify's maxParamLength)
  }
  if (methods.some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH')) {
    add(406); // a form upload whose Content-Type is not multipart (@fastify/multipart)
    add(413);
    add(415);
  }
  return out;
}

/**
 * The standalone entry of a service in distributed mode: parse config (fail fast), build the runtime on
 * Kafka and BullMQ, register the service plugin under /api/<name>, listen, close cleanly on signals.
 */
export async function startService(o: ServiceDescriptor, env: Record<string, string | undefined> = process.env): Promise<App> {
  let config!: Static<typeof BaseConfigSchema>;
  let own!: Record<string, unknown>;
  let kafka: KafkaClientOptions;
  try {
    // the kit's settings and the service's (its schema and checkConfig, as the all-in-one parses them), every problem said together
    everyConfigProblem(
      () => (config = parseConfig(BaseConfigSchema, env)),
      () => (own = parseServiceConfig(o, env)),
    );
    kafka = kafkaClientOptions(config);
    if (!config.KAFKA_BROKERS)
      throw new ConfigError(
        'Invalid configuration:\n  - KAFKA_BROKERS: required in distributed mode (the all-in-one server is `npm start`)',
      );
    if (!config.REDIS_URL)
      throw new ConfigError('Invalid configuration:\n  - REDIS_URL: required in distributed mode (the all-in-one server is `npm start`)');
    if (!config.JWT_PUBLIC_KEY && !config.JWT_PUBLIC_KEY_FILE)
      throw new ConfigError('Invalid configuration:\n  - JWT_PUBLIC_KEY or JWT_PUBLIC_KEY_FILE: required');
    if (config.NODE_ENV === 'production' && !config.GATEWAY_PUBLIC_KEY && !config.GATEWAY_PUBLIC_KEY_FILE)
      throw new ConfigError(
        'Invalid configuration:\n  - GATEWAY_PUBLIC_KEY or GATEWAY_PUBLIC_KEY_FILE: required in production (the service answers only requests the gateway signed)',
      );
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${o.name}: ${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
  const logger = createLogger(o.name, config.LOG_LEVEL);
  // Started before PostgreSQL or Kafka is up: wait (live, not ready) rather than exit.
  await waitForDependencies(
    [
      postgresDependency(config.DATABASE_URL),
      kafkaDependency(
        config.KAFKA_BROKERS.split(',')
          .map((b) => b.trim())
          .filter(Boolean),
        o.name,
        kafka,
      ),
    ],
    { logger, port: config.PORT, host: config.HOST },
  );
  const runtime = await createRuntime({
    serviceName: o.name,
    databaseUrl: config.DATABASE_URL,
    migrationDatabaseUrl: config.DATABASE_MIGRATION_URL,
    poolSize: config.DB_POOL_SIZE,
    kafkaBrokers: config.KAFKA_BROKERS,
    kafkaNamespace: config.KAFKA_NAMESPACE,
    kafka,
    redisUrl: config.REDIS_URL,
    jobsPrefix: config.BULLMQ_PREFIX,
    publicKeyPem: readPem(config.JWT_PUBLIC_KEY, config.JWT_PUBLIC_KEY_FILE),
    logger,
    demoMode: config.DEMO_MODE,
    publicUrl: config.PUBLIC_URL,
  });
  // A service's plugin may wait for Kafka while registering (awaitReplay subscriptions join and replay):
  // with replicas starting together on a busy machine a group rebalances a few times, well past Fastify's
  // default 10 s.
  // X-Forwarded-For is believed only from the gateways' addresses (TRUSTED_PROXIES): a request straight
  // to a service claiming another client's address is counted by its own (e.g. identity's sign-in throttle).
  const app = createApp({ logger, trustProxy: trustedProxies(config.TRUSTED_PROXIES), pluginTimeout: 120_000 });
  // The gateway as the only door: everything but the health routes (and the reads named by the service)
  // must carry the gateway's signature (gateway-signature.ts). First hook: nothing else runs before it.
  const gatewayKey = readPem(config.GATEWAY_PUBLIC_KEY, config.GATEWAY_PUBLIC_KEY_FILE);
  if (gatewayKey) requireGatewaySignature(app, new GatewaySignatureVerifier(gatewayKey), o.unsignedGets);
  else logger.warn('GATEWAY_PUBLIC_KEY(_FILE) not set: this service answers requests that did not come through the gateway');
  addHealthRoutes(app, runtime.healthChecks());
  await registerOpenApi(app, `Countinghouse ${o.name}`);
  await app.register(
    async (scope) => {
      const host: ServiceHost = {
        mode: 'distributed',
        runtime,
        practice: await followedPractice(o.name, runtime, own, scope),
        production: config.NODE_ENV === 'production',
      };
      await scope.register(o.plugin, await o.options(own, host, scope));
      await o.standalone?.(runtime, own);
    },
    { prefix: `/api/${o.name}` },
  );
  if (o.jobsAdmin) await app.register(async (scope) => scope.register(jobsAdminPlugin, { runtime }), { prefix: '/api/jobs' });
  app.get(`/api/${o.name}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
  closeOnSignals(app, () => runtime.close());
  // (the plugin's consumer groups join side by side: a process answers, and is ready, once all have joined)
  await runtime.bus.joined();
  await app.listen({ port: config.PORT, host: config.HOST });
  logger.info({ service: o.name, node: process.version }, `${o.name} is running`);
  return app;
}
