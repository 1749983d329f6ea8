import helmetMiddleware, { type HelmetOptions } from 'helmet';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import swaggerUi from '@fastify/swagger-ui';
import {
  addHealthRoutes,
  authContext,
  createApp,
  registerOpenApi,
  type App,
  type GatewaySigner,
  type TokenVerifier,
} from '@countinghouse/kit';
import { PublicConfigSchema, type PublicConfig } from '@countinghouse/proto';
import type { Logger } from 'pino';
import { serveFrontend } from './frontend.js';
import { registerUpstream, type UpstreamGroup, type UpstreamOptions } from './proxy.js';
import { Redis } from 'ioredis';
import { installGatewayGuards, RedisSignInLimiter, SignInLimiter, type SignInLimit } from './security.js';

export type { PublicConfig };

export interface GatewayOptions {
  logger: Logger;
  verifier: TokenVerifier;
  /** In-process plugins (all-in-one), each registered under /api/<name>. */
  plugins?: Array<{ name: string; register: (scope: App) => Promise<void> }>;
  /** Upstream base URLs (distributed), each proxied at /api/<name>: one URL or a comma-separated list of replicas. */
  upstreams?: Record<string, string | string[]>;
  /** Replica checks of the proxy (tests shorten them). */
  upstreamOptions?: UpstreamOptions;
  frontendDir: string | null;
  publicConfig: () => PublicConfig;
  /** What the gateway's own readiness needs (all-in-one: the database, bus and queue it runs on). */
  healthChecks: Record<string, () => Promise<boolean>>;
  /** Shown by /health/ready without deciding it (distributed: Kafka); each upstream is added here too. */
  healthReport?: Record<string, () => Promise<boolean>>;
  allowedOrigins?: string[];
  signInMax?: number;
  signInWindowMs?: number;
  trustProxy?: boolean;
  /** REDIS_URL: the sign-in limit is counted there, shared by every replica; without it, in memory. */
  redisUrl?: string;
  /** REDIS_KEY_PREFIX: the start of the gateway's keys there (default countinghouse). */
  redisKeyPrefix?: string;
  /** HSTS_MAX_AGE: seconds of Strict-Transport-Security (with includeSubDomains); 0 or absent sends none. */
  hstsMaxAge?: number;
}

/** The single public entry point: security headers, guards, routing to services, docs, and the UI. */
export async function buildGateway(o: GatewayOptions): Promise<App> {
  const app = createApp({ logger: o.logger, trustProxy: o.trustProxy ?? false, notFoundHandler: !o.frontendDir });
  // Security headers, computed once: @fastify/helmet rebuilt them (CSP parsing included) on every
  // request, about a third of the gateway's CPU per request in the bench.
  const securityHeaders = precomputeHelmetHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // antd injects its CSS-in-JS styles at run time
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    // Off unless configured: only a deployment served over HTTPS on every subdomain may promise it.
    strictTransportSecurity: o.hstsMaxAge ? { maxAge: o.hstsMaxAge, includeSubDomains: true, preload: false } : false,
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(securityHeaders);
    done();
  });
  await app.register(authContext, { verifier: o.verifier });
  installGatewayGuards(app, {
    allowedOrigins: new Set(o.allowedOrigins ?? []),
    limiter: signInLimiter(app, o),
  });
  // Distributed: an upstream down is reported, not a reason to be unready (its routes answer 503 alone).
  const upstreamGroups: UpstreamGroup[] = [];
  const report = {
    ...o.healthReport,
    ...Object.fromEntries(
      Object.keys(o.upstreams ?? {}).map((name) => [
        `upstream:${name}`,
        async () => upstreamGroups.find((g) => g.name === name)?.replicas.some((r) => r.ready) ?? false,
      ]),
    ),
  };
  addHealthRoutes(app, o.healthChecks, Object.keys(report).length > 0 ? report : undefined);

  await registerOpenApi(app, 'Countinghouse API');
  const upstreamDocs = new Map<string, unknown>();
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    transformSpecification: (spec) => mergeUpstreamDocs(spec, upstreamDocs),
  });

  app.get(
    '/api/public/config',
    {
      schema: {
        tags: ['public'],
        summary: 'Public site settings: demo mode, maintenance, practice contact details',
        response: { 200: PublicConfigSchema },
      },
    },
    async (_req, reply) => {
      reply.header('cache-control', 'no-cache');
      return o.publicConfig();
    },
  );

  for (const p of o.plugins ?? []) {
    await app.register(async (scope) => p.register(scope), { prefix: `/api/${p.name}` });
  }
  // One document per process: a path served by another service's processes (/api/jobs by notifications,
  // unless JOBS_URL says otherwise) is in that service's document already.
  const documented = new Set<string>();
  for (const [name, bases] of Object.entries(o.upstreams ?? {})) {
    const group = await registerUpstream(app, name, bases, o.upstreamOptions);
    upstreamGroups.push(group);
    const key = group.replicas.map((r) => r.base).join(',');
    if (documented.has(key)) continue;
    documented.add(key);
    void fetchUpstreamDoc(name, group.replicas[0]!.base, upstreamDocs, o.logger, o.upstreamOptions?.signer);
  }
  if (o.frontendDir) await serveFrontend(app, o.frontendDir);
  return app;
}

function signInLimiter(app: App, o: GatewayOptions): SignInLimit {
  const max = o.signInMax ?? 10;
  const windowMs = o.signInWindowMs ?? 60_000;
  if (!o.redisUrl) return new SignInLimiter(max, windowMs);
  // No offline queue and a short timeout: a sign-in never waits on a Redis that is away (the limiter
  // then counts in memory and says so in the log).
  const redis = new Redis(o.redisUrl, { enableOfflineQueue: false, commandTimeout: 1000, maxRetriesPerRequest: 1, lazyConnect: false });
  let lastWarned = 0;
  redis.on('error', () => undefined);
  const limiter = new RedisSignInLimiter(
    redis,
    max,
    windowMs,
    (err) => {
      if (Date.now() - lastWarned < 60_000) return;
      lastWarned = Date.now();
      o.logger.warn({ err }, 'sign-in limit: Redis not answering, counting in this process meanwhile');
    },
    `${o.redisKeyPrefix ?? 'countinghouse'}:gateway:sign-in:`,
  );
  // The connection opens while the gateway starts: wait for it (briefly) before taking requests, or the
  // first sign-ins after a start would be counted in this process only (a CI run under load showed it).
  app.addHook('onReady', async () => {
    if (redis.status === 'ready') return;
    const ready = await new Promise<boolean>((resolve) => {
      const onReady = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        redis.off('ready', onReady);
        resolve(false);
      }, REDIS_READY_WAIT_MS);
      redis.once('ready', onReady);
    });
    if (!ready) o.logger.warn('sign-in limit: Redis not ready at start, counting in this process meanwhile');
  });
  app.addHook('onClose', async () => limiter.close());
  return limiter;
}

/** How long a starting gateway waits for Redis before it counts sign-ins in memory. */
const REDIS_READY_WAIT_MS = 5000;

async function fetchUpstreamDoc(name: string, base: string, into: Map<string, unknown>, logger: Logger, signer?: GatewaySigner) {
  const path = `/api/${name}/openapi.json`;
  for (let attempt = 0; attempt < 30; attempt++) {
    try {
      const res = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(3000), headers: signer?.headers('GET', path) });
      if (res.ok) {
        into.set(name, await res.json());
        return;
      }
    } catch {
      // the service may still be starting
    }
    await new Promise((r) => setTimeout(r, 2000).unref());
  }
  logger.warn({ service: name }, 'could not load the service OpenAPI document');
}

type JsonObject = Record<string, unknown>;
/** A part of an OpenAPI document that is an object, or an empty one when it is absent. */
const objectOr = (v: unknown): JsonObject => (typeof v === 'object' && v !== null && !Array.isArray(v) ? { ...v } : {});

/** In distributed mode the gateway's document also carries each upstream service's paths (docs: their documents). */
function mergeUpstreamDocs(spec: Readonly<JsonObject>, docs: Map<string, unknown>) {
  if (docs.size === 0) return spec;
  const paths = objectOr(spec.paths);
  const components = objectOr(spec.components);
  const schemas = objectOr(components.schemas);
  for (const d of docs.values()) {
    const doc = objectOr(d);
    Object.assign(paths, objectOr(doc.paths));
    Object.assign(schemas, objectOr(objectOr(doc.components).schemas));
  }
  return { ...spec, paths, components: { ...components, schemas } };
}

/** The headers helmet would set, captured once from its middleware. */
function precomputeHelmetHeaders(opts: HelmetOptions): Record<string, string> {
  // A response that is never sent (its request has a socket that never connects): helmet sets and
  // removes headers on it, read back once it is done.
  const res = new ServerResponse(new IncomingMessage(new Socket()));
  helmetMiddleware(opts)(res.req, res, () => {});
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}
