import { EDGE_MESSAGES } from '@countinghouse/proto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { sendError } from './errors.js';

/**
 * 405 with `Allow` for a known path asked with another method (issue 32, item 4; RFC 9110 15.5.6): Fastify
 * answers 404 for any method it has no route for. Every route an app registers is also put in a second
 * router of paths only; a request that found no route is looked up there for each method, and when its
 * path has routes the answer is 405 listing them (HEAD, which Fastify adds to every GET, is not listed:
 * it is GET without the body). Answered by the app's first hooks (createApp), for every method, before
 * the sign-in and content checks; the not-found handlers (the services' JSON 404, the gateway's frontend
 * fallback) ask too.
 */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const SHADOW = Symbol.for('countinghouse.routePaths');

type Shadow = ReturnType<typeof FindMyWay>;
type Method = (typeof METHODS)[number];

function isMethod(m: string): m is Method {
  return METHODS.some((known) => known === m);
}

export function trackRoutePaths(app: FastifyInstance) {
  const shadow = FindMyWay({ ignoreTrailingSlash: false, ignoreDuplicateSlashes: false });
  app.decorate(SHADOW, shadow);
  // Paths without parameters and their methods: `PATCH /jobs/board` is routed by Fastify to
  // `PATCH /jobs/:id` (id "board"), but /jobs/board is its own resource, known only under GET: a 405.
  // (Only for parametric routes: a wildcard is the gateway's proxy, which forwards every method.)
  const staticPaths = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => String(m).toUpperCase());
    for (const m of methods) {
      if (!isMethod(m)) continue;
      if (route.url.startsWith('/__countinghouse/')) continue;
      // (route.url carries the prefix of the plugin that registered it)
      // (a plugin's '/' route answers at its prefix with and without the slash)
      const urls = route.prefix && (route.routePath === '/' || route.routePath === '') ? [route.prefix, `${route.prefix}/`] : [route.url];
      for (const url of urls) {
        if (!/[:*]/.test(url)) staticPaths.set(url, (staticPaths.get(url) ?? new Set()).add(m));
        try {
          shadow.on(m, url, () => undefined);
        } catch {
          // registered twice (another constraint, or the prefix's two forms): one entry is enough here
        }
      }
    }
  });
  // Before anything else reads the request: a method Fastify treats as having a body (QUERY) would
  // otherwise be refused for its missing Content-Type before the not-found handler could say 405.
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404 && replyMethodNotAllowed(request, reply)) return reply;
    const routeUrl = request.routeOptions.url;
    if (!request.is404 && routeUrl && routeUrl.includes(':') && !routeUrl.includes('*')) {
      const known = staticPaths.get(request.url.split('?', 1)[0]!);
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      if (known && !known.has(method)) {
        void sendError(
          reply.header('allow', METHODS.filter((m) => known.has(m)).join(', ')),
          405,
          'METHOD_NOT_ALLOWED',
          EDGE_MESSAGES.methodNotAllowed,
        );
        return reply;
      }
    }
  });
}

/** The methods a path has routes for, or [] when it has none (then it is a 404). */
export function allowedMethods(app: FastifyInstance, url: string): string[] {
  const shadow: Shadow | undefined = Reflect.get(app, SHADOW);
  if (!shadow) return [];
  const path = url.split('?', 1)[0]!;
  return METHODS.filter((m) => shadow.find(m, path) !== null);
}

/** Answers 405 with Allow when the path is known under other methods; false when it is not (the caller's 404). */
export function replyMethodNotAllowed(request: FastifyRequest, reply: FastifyReply): boolean {
  const allowed = allowedMethods(request.server, request.url);
  if (allowed.length === 0 || allowed.includes(request.method === 'HEAD' ? 'GET' : request.method)) return false;
  void sendError(reply.header('allow', allowed.join(', ')), 405, 'METHOD_NOT_ALLOWED', EDGE_MESSAGES.methodNotAllowed);
  return true;
}
