import { AppError, BAD_TARGET_PATH, sendError, type App } from '@countinghouse/kit';
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

/** Counts sign-in attempts per key in a fixed window; `take` returns seconds to wait when over the limit, else 0. */
export interface SignInLimit {
  take(key: string): Promise<number>;
  close?(): Promise<void>;
}

/** A fixed-window limiter for sign-in endpoints, keyed by client address and path, in this process's memory. */
export class SignInLimiter implements SignInLimit {
  private hits = new Map<string, { count: number; resetAt: number }>();
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}
  /** Returns seconds to wait when over the limit, else 0. */
  takeNow(key: string, now = Date.now()): number {
    let h = this.hits.get(key);
    if (!h || h.resetAt <= now) {
      if (this.hits.size > 50_000) this.sweep(now);
      h = { count: 0, resetAt: now + this.windowMs };
      this.hits.set(key, h);
    }
    h.count++;
    return h.count > this.max ? Math.ceil((h.resetAt - now) / 1000) : 0;
  }
  async take(key: string): Promise<number> {
    return this.takeNow(key);
  }
  private sweep(now: number) {
    for (const [k, v] of this.hits) if (v.resetAt <= now) this.hits.delete(k);
  }
}

// INCR and the window's expiry in one atomic step: the first attempt of a window starts its clock;
// a key somehow left without an expiry gets one (never a count that lives for ever).
const TAKE_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if n == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
`;

/** TAKE_SCRIPT's answer, {n, ttl}: anything else is an error (the attempt is then counted in this process). */
function takeReply(reply: unknown): { count: number; ttl: number } {
  if (Array.isArray(reply) && typeof reply[0] === 'number') return { count: reply[0], ttl: Number(reply[1]) };
  throw new Error('unexpected answer from the sign-in limit script');
}

/** The smallest part of an ioredis client the shared limiter needs (an ioredis `Redis` fits). */
export interface RedisLike {
  eval(script: string, numKeys: number, ...args: Array<string | number>): Promise<unknown>;
  quit(): Promise<unknown>;
}

/**
 * The same fixed window shared through Redis, so every replica of the gateway counts into one number
 * per address and path (REDIS_URL configured). When Redis does not answer within its command timeout
 * the attempt is counted in this process instead (logged): sign-in keeps working, still limited per
 * replica, rather than failing open or locking everyone out.
 */
export class RedisSignInLimiter implements SignInLimit {
  private readonly fallback: SignInLimiter;
  constructor(
    private readonly redis: RedisLike,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly onError: (err: unknown) => void = () => {},
    private readonly prefix = 'countinghouse:gateway:sign-in:',
  ) {
    this.fallback = new SignInLimiter(max, windowMs);
  }
  async take(key: string): Promise<number> {
    try {
      const { count, ttl } = takeReply(await this.redis.eval(TAKE_SCRIPT, 1, this.prefix + key, this.windowMs));
      return count > this.max ? Math.max(1, Math.ceil(ttl / 1000)) : 0;
    } catch (err) {
      this.onError(err);
      return this.fallback.takeNow(key);
    }
  }
  async close(): Promise<void> {
    await this.redis.quit().catch(() => undefined);
  }
}

export interface GuardOptions {
  allowedOrigins: Set<string>;
  limiter: SignInLimit;
}

/**
 * The gateway's checks, in order: a page asked for by a path that is not in its normal form is
 * redirected to it (so the browser, the UI's router and its maintenance switch see the path the gateway
 * served); then, for the API, cross-site refusal, sign-in rate limit, token required off the allowlist.
 * Every check reads `request.url`, which createApp has already rewritten to the normal form the router
 * routes (services/kit/src/request-target.ts): one string for all of them.
 */
export function installGatewayGuards(app: App, o: GuardOptions) {
  const limiter = o.limiter;
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url;
    if (!url.startsWith('/api/')) {
      if (url !== request.originalUrl && (request.method === 'GET' || request.method === 'HEAD') && url !== BAD_TARGET_PATH) {
        return reply.redirect(url, 308);
      }
      return;
    }
    if (isCrossSite(request, o.allowedOrigins)) {
      return sendError(reply, 403, 'CROSS_SITE_REQUEST', MESSAGES.crossSiteRefused);
    }
    const path = pathOf(url);
    if (request.method === 'POST' && SIGN_IN_ROUTES.includes(path)) {
      const wait = await limiter.take(`${request.ip}|${path}`);
      if (wait > 0) {
        reply.header('retry-after', String(wait));
        return sendError(reply, 429, 'RATE_LIMITED', MESSAGES.tooManyRequests);
      }
    }
    if (!isPublicApi(request.method, url) && !request.principal) {
      const err = request.authError ?? new AppError('UNAUTHENTICATED', MESSAGES.authenticationError);
      return sendError(reply, err.status, err.code, err.message);
    }
    // A staff member the practice requires two-factor sign-in of, not yet enrolled: only enrolment (issue 32).
    if (request.principal?.enrolmentPending && !isPublicApi(request.method, url) && !OPEN_DURING_ENROLMENT.test(path)) {
      return sendError(reply, 403, 'TWO_FACTOR_ENROLMENT_REQUIRED', MESSAGES.twoFactorEnrolmentRequired);
    }
  });
}

/**
 * What a person (or an admin panel account) who must set up two-factor sign-in first can still call: who
 * am I (the admin panel's session check), sign out, refresh, enrolment.
 */
const OPEN_DURING_ENROLMENT =
  /^\/api\/identity\/(auth\/(me|logout|refresh|two-factor(\/.*)?|passkeys(\/.*)?)|admin\/(session|logout|refresh|two-factor(\/.*)?))$/;
