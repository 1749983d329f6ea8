import { AppError, sendError, type App } from '@countinghouse/kit';
import { MESSAGES, PUBLIC_API_ROUTES, SIGN_IN_ROUTES } from '@countinghouse/proto';
import type { FastifyReply, FastifyRequest } from 'fastify';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * Refuse cross-site state-changing requests: browsers say where a request came from (Sec-Fetch-Site,
 * Origin); a form or script on another site cannot post with our cookies. Non-browser clients send
 * neither header and are unaffected (they authenticate with a bearer token).
 */
export function isCrossSite(request: FastifyRequest, allowedOrigins: Set<string>): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site') return true;
  const origin = request.headers.origin;
  if (!origin || origin === 'null') return origin === 'null';
  if (allowedOrigins.has(origin)) return false;
  try {
    return new URL(origin).host !== request.headers.host;
  } catch {
    return true;
  }
}

export function isPublicApi(method: string, url: string): boolean {
  const p = pathOf(url);
  if (!p.startsWith('/api/')) return true;
  if (p.startsWith('/api/docs')) return true;
  return PUBLIC_API_ROUTES.some((r) => {
    if (r.method !== method && !(method === 'HEAD' && r.method === 'GET')) return false;
    if ('path' in r) return r.path === p;
    // a prefix covers one more path segment, no deeper
    return p.startsWith(r.prefix) && p.length > r.prefix.length && !p.slice(r.prefix.length).includes('/');
  });
}

/** A fixed-window limiter for sign-in endpoints, keyed by client address and path. */
export class SignInLimiter {
  private hits = new Map<string, { count: number; resetAt: number }>();
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}
  /** Returns seconds to wait when over the limit, else 0. */
  take(key: string, now = Date.now()): number {
    let h = this.hits.get(key);
    if (!h || h.resetAt <= now) {
      if (this.hits.size > 50_000) this.sweep(now);
      h = { count: 0, resetAt: now + this.windowMs };
      this.hits.set(key, h);
    }
    h.count++;
    return h.count > this.max ? Math.ceil((h.resetAt - now) / 1000) : 0;
  }
  private sweep(now: number) {
    for (const [k, v] of this.hits) if (v.resetAt <= now) this.hits.delete(k);
  }
}

export interface GuardOptions {
  allowedOrigins: Set<string>;
  signInMax: number;
  signInWindowMs: number;
}

/** The gateway's checks, in order: cross-site refusal, sign-in rate limit, token required off the allowlist. */
export function installGatewayGuards(app: App, o: GuardOptions) {
  const limiter = new SignInLimiter(o.signInMax, o.signInWindowMs);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url;
    if (!url.startsWith('/api/')) return;
    if (isCrossSite(request, o.allowedOrigins)) {
      return sendError(reply, 403, 'CROSS_SITE_REQUEST', MESSAGES.crossSiteRefused);
    }
    const path = pathOf(url);
    if (request.method === 'POST' && SIGN_IN_ROUTES.includes(path)) {
      const wait = limiter.take(`${request.ip}|${path}`);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return sendError(reply, 429, 'RATE_LIMITED', MESSAGES.tooManyRequests);
      }
    }
    if (!isPublicApi(request.method, url) && !request.principal) {
      const err = request.authError ?? new AppError('UNAUTHENTICATED', MESSAGES.authenticationError);
      return sendError(reply, err.status, err.code, err.message);
    }
  });
}
