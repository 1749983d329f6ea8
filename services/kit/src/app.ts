import cookie from '@fastify/cookie';
import { EDGE_MESSAGES, ErrorBodySchema, MESSAGES, withTextRules } from '@countinghouse/proto';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import fastJsonStringify, { type Schema as ResponseSchema } from 'fast-json-stringify';
import type { Static, TSchema } from '@sinclair/typebox';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyTypeProvider,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { AppError, installErrorHandler, installNotFoundHandler, sendError } from './errors.js';
import { normaliseRequestTarget } from './request-target.js';
import { tokenFrom, type TokenVerifier } from './auth.js';
import { trackRoutePaths } from './method-not-allowed.js';

/**
 * Fastify's type provider for proto's TypeBox (@sinclair/typebox 0.34) schemas. (The published
 * @fastify/type-provider-typebox 6 computes types with `typebox` 1.x, which turns 0.34's literal unions
 * into `never`.)
 */
export interface TypeBoxTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends TSchema ? Static<this['schema']> : unknown;
  serializer: this['schema'] extends TSchema ? Static<this['schema']> : unknown;
}

/**
 * A Fastify instance typed with the TypeBox provider: a handler's `request.body`, `params` and `query`
 * are the `Static` types of its route's schemas, and a reply that drifts from its response schema does
 * not compile. (Plugins registered on an App keep the provider.)
 */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export interface CreateAppOptions {
  logger: Logger;
  /** Trust X-Forwarded-* from the gateway in distributed mode: from any peer (true) or from these addresses/CIDRs. */
  trustProxy?: boolean | string[];
  bodyLimit?: number;
  /** The gateway sets its own (SPA fallback); services answer the JSON 404. */
  notFoundHandler?: boolean;
  /** How long one plugin may take to register (Fastify's default, 10 s, is short for joining Kafka groups). */
  pluginTimeout?: number;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,100}$/;

/** Where a request whose target does not normalise is routed: one route that answers 400. */
export const BAD_TARGET_PATH = '/__countinghouse/bad-request-target';
/** Why a raw request's target was refused (rewriteUrl sees the raw request, the 400 route its `raw`). */
const BAD_TARGET = new WeakMap<object, string>();

// ---- compiled schemas, once per process ----
// A route's schemas are module constants (proto's TypeBox objects), and many routes share them (every
// route's error responses are ErrorRef). Compiling each again for every route and every app cost about
// 0.8 s per all-in-one app, nearly all of its start (a CPU profile: ajv and fast-json-stringify,
// docs/perf/tests.md "Session 11"). Each schema object is now compiled once per process and reused: the
// compiled functions are pure, and every app has the same options and the same one shared schema.

type ValidatorKind = 'body' | 'headers' | 'text';
let ajvs: Record<'coercing' | 'strict', Ajv> | null = null;
const validators = new WeakMap<object, Partial<Record<ValidatorKind, (data: unknown) => boolean>>>();

/**
 * Query strings, params and headers arrive as text and are coerced to their declared types; a JSON body is
 * not: `{"password": true}` is a client's mistake and gets a 400, not the string "true". Every string of a
 * body, query string or path parameter keeps proto's text rule (no NUL, no control characters; see
 * proto/src/text.ts).
 */
function compiledValidator(schema: Record<string, unknown>, httpPart: string | undefined): (data: unknown) => boolean {
  ajvs ??= {
    coercing: addFormats.default(
      new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: false, allErrors: false, strict: false }),
    ),
    strict: addFormats.default(
      new Ajv({ coerceTypes: false, useDefaults: true, removeAdditional: false, allErrors: false, strict: false }),
    ),
  };
  const kind: ValidatorKind = httpPart === 'body' ? 'body' : httpPart === 'headers' ? 'headers' : 'text';
  const byKind = validators.get(schema) ?? {};
  let fn = byKind[kind];
  if (!fn) {
    const ajv = kind === 'body' ? ajvs.strict : ajvs.coercing;
    fn = ajv.compile(kind === 'headers' ? schema : withTextRules(schema));
    byKind[kind] = fn;
    validators.set(schema, byKind);
  }
  return fn;
}

/**
 * The shared schemas a response may refer to: createApp adds exactly these to every app. (As plain JSON:
 * fast-json-stringify reads JSON Schema, and its types do not describe TypeBox's objects.)
 */
const SHARED_SCHEMAS: Record<string, ResponseSchema> = JSON.parse(JSON.stringify({ [ErrorBodySchema.$id!]: ErrorBodySchema }));
const serializers = new WeakMap<object, (doc: unknown) => string>();

/** fast-json-stringify, as Fastify's own serializer compiler calls it, once per response schema object. */
function compiledSerializer(schema: ResponseSchema): (doc: unknown) => string {
  let fn = serializers.get(schema);
  if (!fn) {
    const id = '$id' in schema ? schema.$id : undefined;
    // (a schema that is itself a shared one is not passed twice: fast-json-stringify refuses a repeated $id)
    const external =
      id && SHARED_SCHEMAS[id] ? Object.fromEntries(Object.entries(SHARED_SCHEMAS).filter(([k]) => k !== id)) : SHARED_SCHEMAS;
    fn = fastJsonStringify(schema, { schema: external });
    serializers.set(schema, fn);
  }
  return fn;
}

/** The one Fastify factory: request ids, the error shape, schema-validated routes. Only main files listen. */
export function createApp(opts: CreateAppOptions): App {
  // (typed as Fastify's logger: inferred as pino's own, the app would not be an App)
  const loggerInstance: FastifyBaseLogger = opts.logger;
  const app = Fastify({
    loggerInstance,
    trustProxy: opts.trustProxy ?? false,
    bodyLimit: opts.bodyLimit ?? 1_048_576,
    requestIdHeader: false,
    genReqId: (req) => {
      const h = req.headers['x-request-id'];
      return typeof h === 'string' && REQUEST_ID.test(h) ? h : randomUUID();
    },
    // Fastify's own 503 while closing has its own body; ours (below) keeps the error shape
    return503OnClosing: false,
    // The router's own refusals (a path it cannot decode: 400; a path parameter past maxParamLength:
    // 414) in the error shape, not Fastify's body
    frameworkErrors: (error, _request, reply) => sendError(reply, error.statusCode ?? 400, 'BAD_REQUEST', EDGE_MESSAGES.badRequestTarget),
    ...(opts.pluginTimeout ? { pluginTimeout: opts.pluginTimeout } : {}),
    // One path for the router and every guard (see request-target.ts): `request.url` is the normal form.
    rewriteUrl: (req) => {
      const n = normaliseRequestTarget(req.url ?? '/');
      if (n.ok) return n.url;
      BAD_TARGET.set(req, n.reason);
      return BAD_TARGET_PATH;
    },
    // Fastify logs two info lines per request; ours is one line at debug (LOG_LEVEL=debug shows them).
    // (Errors are still logged: installErrorHandler logs 5xx and unhandled errors itself.)
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Closing: a request that still arrives (pipelined, or on a kept-alive connection) gets 503 in the
  // product's error shape, and the connection is closed after it (the load balancer tries elsewhere).
  // (the first hook: nothing else runs for it)
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    return sendError(reply, 503, 'SHUTTING_DOWN', EDGE_MESSAGES.shuttingDown);
  });
  // every route's path, for the 405 of a known path asked with another method (method-not-allowed.ts)
  trackRoutePaths(app);
  app.addHook('onResponse', async (request, reply) => {
    const level = reply.statusCode >= 500 ? 'warn' : 'debug';
    request.log[level](
      { method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
  });
  app.setValidatorCompiler<Record<string, unknown>>(({ schema, httpPart }) => compiledValidator(schema, httpPart));
  app.setSerializerCompiler<ResponseSchema>(({ schema }) => compiledSerializer(schema));
  // (the one shared schema: compiledSerializer resolves `$ref: 'ErrorBody'` with it)
  app.addSchema(ErrorBodySchema);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installErrorHandler(app);
  if (opts.notFoundHandler !== false) installNotFoundHandler(app);
  // (a route-level hook: the instance's own onRequest hooks, security headers included, run first)
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: BAD_TARGET_PATH,
    schema: { hide: true },
    onRequest: async (request, reply) => {
      const reason = BAD_TARGET.get(request.raw);
      if (reason) request.log.info({ url: request.originalUrl, reason }, 'request target refused');
      return sendError(reply, 400, 'BAD_REQUEST', EDGE_MESSAGES.badRequestTarget);
    },
    handler: async () => undefined,
  });
  return app;
}

export interface HealthChecks {
  [name: string]: () => Promise<boolean>;
}

/**
 * /health/live says the process answers; /health/ready checks its dependencies (database, bus, queue).
 * `report` adds what is worth seeing but does not decide readiness (the gateway's upstreams: one service
 * down must not take every gateway out of its load balancer).
 */
export function addHealthRoutes(app: App, checks: HealthChecks, report?: HealthChecks) {
  app.get('/health/live', { logLevel: 'warn', schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/health/ready', { logLevel: 'warn', schema: { hide: true } }, async (_req, reply) => {
    const results: Record<string, 'ok' | 'down'> = {};
    await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        results[name] = (await check().catch(() => false)) ? 'ok' : 'down';
      }),
    );
    const ok = Object.values(results).every((r) => r === 'ok');
    if (!report) return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', checks: results });
    const reported: Record<string, 'ok' | 'down'> = {};
    await Promise.all(
      Object.entries(report).map(async ([name, check]) => {
        reported[name] = (await check().catch(() => false)) ? 'ok' : 'down';
      }),
    );
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'degraded', checks: results, report: reported });
  });
}

/**
 * Per-request authentication context: parses cookies and verifies the access token when there is one.
 * A bad token does not fail here (sign-in routes must still work); guards throw the recorded reason.
 */
const AUTH_CONTEXT = Symbol.for('countinghouse.authContext.verifier');

export const authContext = fp<{ verifier: TokenVerifier }>(
  async (app, { verifier }) => {
    if (!app.hasRequestDecorator('cookies')) await app.register(cookie);
    if (!app.hasRequestDecorator('principal')) app.decorateRequest('principal', null);
    if (!app.hasRequestDecorator('authError')) app.decorateRequest('authError', null);
    // In the all-in-one app the gateway (the root) has already verified the token with this very
    // verifier and revocation list; a service plugin registered inside it does not verify it twice.
    // (In distributed mode every service is its own process and verifies for itself.)
    const installed: unknown = Reflect.get(app, AUTH_CONTEXT);
    if (installed === verifier) return;
    if (installed === undefined) app.decorate(AUTH_CONTEXT, verifier);
    else Reflect.set(app, AUTH_CONTEXT, verifier);
    app.addHook('onRequest', async (request) => {
      const token = tokenFrom(request);
      request.principal = null;
      request.authError = null;
      if (!token) return;
      try {
        request.principal = { ...(await verifier.verify(token)), ip: request.ip };
      } catch (err) {
        request.authError = err instanceof AppError ? err : new AppError('UNAUTHENTICATED', MESSAGES.authenticationError);
      }
    });
  },
  { name: 'countinghouse-auth-context', fastify: '5.x' },
);

declare module 'fastify' {
  interface FastifyRequest {
    authError: AppError | null;
  }
}

/**
 * A process npm ran (`npm start`, `npm run start:distributed`: npm sets npm_lifecycle_event) stops as on
 * SIGTERM once npm is gone. npm 11 exits on a SIGTERM to its own pid (a process manager stopping what it
 * started, `kill` on npm's pid) without passing the signal on, which left the server running, orphaned,
 * holding its port. A process started any other way (node itself, a container's init, nohup) is left
 * alone: its parent leaving is not a request to stop. Checked every `intervalMs`; returns the canceller.
 */
export function stopWhenNpmIsGone(
  stop: () => void,
  o: { env?: Record<string, string | undefined>; intervalMs?: number; parentPid?: () => number } = {},
): () => void {
  const env = o.env ?? process.env;
  if (!env.npm_lifecycle_event) return () => {};
  const parentPid = o.parentPid ?? (() => process.ppid);
  const parent = parentPid();
  const timer = setInterval(() => {
    if (parentPid() === parent) return;
    clearInterval(timer);
    stop();
  }, o.intervalMs ?? 1000);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Stop cleanly on SIGINT/SIGTERM (or npm, which ran this process, gone: stopWhenNpmIsGone): stop
 * accepting, finish in-flight requests, then run closers.
 */
export function closeOnSignals(app: App, extra: () => Promise<void> = async () => {}) {
  let closing = false;
  const handler = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await app.close();
      await extra();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  stopWhenNpmIsGone(() => void handler('npm exited'));
}
