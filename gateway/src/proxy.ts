import { MESSAGES } from '@countinghouse/proto';
import { GATEWAY_SIGNATURE_HEADER, type App, type GatewaySigner } from '@countinghouse/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Pool, type Dispatcher } from 'undici';

// Hop-by-hop headers (RFC 9110 7.6.1) and host: never forwarded in either direction.
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host']);

export interface UpstreamOptions {
  connections?: number;
  headersTimeout?: number;
  bodyTimeout?: number;
  /** How long a replica that refused a connection is left out (passive check). Default 10 s. */
  ejectMs?: number;
  /**
   * Interval of the active checks (GET /health/ready on every replica) while every replica is ready;
   * 0 turns them off. Default 10 s: a replica that dies is left out at its first refused connection
   * (the passive check) long before, and a check costs each replica a database, broker and Redis
   * round trip (issue 35: idle that costs nothing).
   */
  healthIntervalMs?: number;
  /** The interval while a replica is not ready or left out, to take it back soon. Default 2 s (at most healthIntervalMs). */
  healthRecheckMs?: number;
  /** Timeout of one active check. Default 1.5 s. */
  healthTimeoutMs?: number;
  /** Signs every forwarded request (method, path, time): services answer only what the gateway signed. */
  signer?: GatewaySigner;
}

/** Errors that mean the request never got an answer from this replica: the connection, not the service, failed. */
const CONNECTION_FAILURES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** Of those, the ones where no connection was ever made: the replica cannot have seen a byte of the request. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** The error, or one of the errors it was caused by (up to three deep), has one of these codes. */
function hasCode(err: unknown, codes: Set<string>): boolean {
  let e = err;
  for (let depth = 0; typeof e === 'object' && e !== null && depth < 4; depth++) {
    if ('code' in e && typeof e.code === 'string' && codes.has(e.code)) return true;
    e = 'cause' in e ? e.cause : undefined;
  }
  return false;
}

export function isConnectionFailure(err: unknown): boolean {
  return hasCode(err, CONNECTION_FAILURES);
}

/** The connection to the replica was never made (refused, unreachable, timed out connecting). */
export function neverConnected(err: unknown): boolean {
  return hasCode(err, NEVER_CONNECTED);
}

/** One process of a service. */
export class Replica {
  readonly pool: Pool;
  /** Passive check: left out until then after a failed connection. */
  ejectedUntil = 0;
  /** Active check: the last /health/ready answer (true until the first check says otherwise). */
  ready = true;

  constructor(
    readonly base: string,
    o: UpstreamOptions,
  ) {
    this.pool = new Pool(base, {
      connections: o.connections ?? 128,
      pipelining: 1,
      headersTimeout: o.headersTimeout ?? 30_000,
      bodyTimeout: o.bodyTimeout ?? 30_000,
    });
  }

  available(now: number): boolean {
    return this.ready && now >= this.ejectedUntil;
  }
}

/**
 * The replicas of one service: round robin over the available ones (ready by the active check and not
 * ejected by the passive one). When none is available by both checks the ones not ejected are still
 * tried (a dependency such as Kafka down makes every replica "not ready" while reads still work), then
 * the ejected ones; a request fails over nowhere (503) only when the ones it tried could not be reached.
 */
export class UpstreamGroup {
  readonly replicas: Replica[];
  private next = 0;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = 0;
  private checking = false;
  private runCheck: (() => void) | null = null;
  private recheckMs = 2000;
  private readonly ejectMs: number;

  constructor(
    readonly name: string,
    bases: string[],
    private readonly o: UpstreamOptions = {},
  ) {
    if (bases.length === 0) throw new Error(`no replica given for ${name}`);
    this.replicas = bases.map((b) => new Replica(b.replace(/\/+$/, ''), o));
    this.ejectMs = o.ejectMs ?? 10_000;
  }

  /** The next replica, round robin, other than `exclude`; null when none can be tried. */
  pick(exclude?: Replica): Replica | null {
    const now = Date.now();
    const n = this.replicas.length;
    const scan = (ok: (r: Replica) => boolean) => {
      for (let i = 0; i < n; i++) {
        const r = this.replicas[(this.next + i) % n]!;
        if (r !== exclude && ok(r)) {
          this.next = (this.next + i + 1) % n;
          return r;
        }
      }
      return null;
    };
    // last, one left out by the passive check: it may be back before its time is up (a replica restarted
    // while the other one just died), and trying it costs a refused connection at worst
    return scan((r) => r.available(now)) ?? scan((r) => now >= r.ejectedUntil) ?? scan(() => true);
  }

  /** Leave `r` out for a while (its connection failed), and check every replica again soon. */
  eject(r: Replica): void {
    r.ejectedUntil = Date.now() + this.ejectMs;
    this.scheduleCheck(this.recheckMs);
  }

  startHealthChecks(onChange?: (r: Replica, ready: boolean) => void): void {
    const every = this.o.healthIntervalMs ?? 10_000;
    if (every <= 0 || this.checking) return;
    this.recheckMs = Math.min(every, this.o.healthRecheckMs ?? 2000);
    this.checking = true;
    const check = async () => {
      this.timer = null;
      await Promise.all(
        this.replicas.map(async (r) => {
          const ok = await fetch(`${r.base}/health/ready`, { signal: AbortSignal.timeout(this.o.healthTimeoutMs ?? 1500) })
            .then((res) => res.ok)
            .catch(() => false);
          if (ok && r.ejectedUntil > Date.now()) r.ejectedUntil = 0; // back: take it again at once
          if (ok !== r.ready) onChange?.(r, ok);
          r.ready = ok;
        }),
      );
      if (!this.checking) return;
      const now = Date.now();
      this.scheduleCheck(this.replicas.every((r) => r.available(now)) ? every : this.recheckMs);
    };
    this.runCheck = () => void check();
    this.runCheck();
  }

  /** The next active check in `ms`, unless one is due sooner. */
  private scheduleCheck(ms: number) {
    if (!this.checking || !this.runCheck) return;
    const at = Date.now() + ms;
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(this.runCheck, ms);
    this.timer.unref();
  }

  /** Any replica that answers /health/live (the gateway's own readiness). */
  async anyLive(): Promise<boolean> {
    const answers = await Promise.all(
      this.replicas.map((r) =>
        fetch(`${r.base}/health/live`, { signal: AbortSignal.timeout(2000) })
          .then((res) => res.ok)
          .catch(() => false),
      ),
    );
    return answers.some(Boolean);
  }

  async close(): Promise<void> {
    this.checking = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled(this.replicas.map((r) => r.pool.close()));
  }
}

/** `http://a:1,http://b:2` → the list of base URLs (blanks dropped). */
export function parseUpstreamList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Distributed mode: /api/<name> and everything under it go to one of the service's replicas, through a
 * pool of keep-alive connections per replica (undici). The request body streams to the service untouched
 * (the gateway never parses it) and the answer streams back onto the client's socket as it arrives, with
 * the gateway's security headers and the request id. A replica whose connection fails is left out for a
 * while; a GET or HEAD is then tried once more on another replica (nothing was answered yet, and a read
 * may be repeated), and so is a write whose connection was refused before any of its body was read (it
 * never left the gateway). A write that may have reached a replica is not repeated and answers 503 in
 * the usual error shape, as does any request when no replica can be reached. A client that goes away aborts the upstream request.
 *
 * This replaced @fastify/http-proxy: the same job for about 30 % less CPU per request (docs/perf/gateway.md).
 */
export async function registerUpstream(app: App, name: string, bases: string | string[], o: UpstreamOptions = {}): Promise<UpstreamGroup> {
  const group = new UpstreamGroup(name, typeof bases === 'string' ? parseUpstreamList(bases) : bases, o);
  group.startHealthChecks((r, ready) =>
    app.log[ready ? 'info' : 'warn']({ upstream: name, replica: r.base }, ready ? 'replica ready again' : 'replica not ready'),
  );
  app.addHook('onClose', async () => {
    await group.close();
  });
  await app.register(async (scope) => {
    // the body is the service's business: leave it unread on the socket
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const forward = (request: FastifyRequest, reply: FastifyReply) => proxy(group, request, reply, o.signer);
    scope.all(`/api/${name}`, forward);
    scope.all(`/api/${name}/*`, forward);
  });
  return group;
}

function proxy(group: UpstreamGroup, request: FastifyRequest, reply: FastifyReply, signer?: GatewaySigner): void {
  const incoming = request.headers;
  const headers: Record<string, string | string[]> = {};
  for (const k in incoming) {
    const v = incoming[k];
    if (v !== undefined && !HOP.has(k)) headers[k] = v;
  }
  headers['x-request-id'] = request.id;
  headers['x-forwarded-for'] = request.ip;
  const method: Dispatcher.HttpMethod = request.method;
  // a caller's own signature header never passes; the gateway's, over what it forwards, replaces it
  delete headers[GATEWAY_SIGNATURE_HEADER];
  if (signer) headers[GATEWAY_SIGNATURE_HEADER] = signer.sign(method, request.url);
  const safe = method === 'GET' || method === 'HEAD';
  const res = reply.raw;
  // from here the gateway writes the answer itself; what its hooks set so far (security headers) goes with it
  reply.hijack();
  // (getHeaders gives a fresh object: ours to add to)
  const out: Record<string, string | number | string[] | undefined> = reply.getHeaders();
  let answered = false;

  const unavailable = (err: Error | null) => {
    if (answered || res.headersSent) {
      res.destroy(err ?? undefined);
      return;
    }
    answered = true;
    if (res.destroyed) return;
    request.log.warn({ err, upstream: group.name }, 'upstream unavailable');
    res.writeHead(503, { ...out, 'content-type': 'application/json; charset=utf-8', 'x-request-id': request.id });
    res.end(JSON.stringify({ error: { code: 'UPSTREAM_UNAVAILABLE', message: MESSAGES.serviceUnavailable } }));
  };

  const attempt = (replica: Replica, retried: boolean) => {
    let started = false;
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(controller) {
        res.once('close', () => {
          if (!res.writableFinished) controller.abort(new Error('the client went away'));
        });
      },
      onResponseStart(_controller, statusCode, upstream) {
        if (statusCode < 200) return;
        started = true;
        answered = true;
        for (const k in upstream) if (!HOP.has(k)) out[k] = upstream[k];
        out['x-request-id'] = request.id;
        res.writeHead(statusCode, out);
      },
      onResponseData(controller, chunk) {
        if (!res.write(chunk)) {
          controller.pause();
          res.once('drain', () => controller.resume());
        }
      },
      onResponseEnd() {
        // (Fastify still logs 'request completed' when the response finishes)
        res.end();
      },
      onResponseError(_controller, err) {
        if (!started && !res.destroyed && isConnectionFailure(err)) {
          group.eject(replica);
          request.log.warn({ err, upstream: group.name, replica: replica.base }, 'replica unreachable: left out for a while');
          // A read may be repeated. A write only when it never left: the replica refused the connection
          // and not a byte of the body was read (e.g. a replica killed a moment ago, before the health
          // check noticed); once a write may have reached a replica it is never sent again.
          if (!retried && (safe || (neverConnected(err) && !request.raw.readableDidRead))) {
            const other = group.pick(replica);
            if (other) return attempt(other, true);
          }
        }
        unavailable(err);
      },
    };
    try {
      replica.pool.dispatch({ path: request.url, method, headers, body: safe ? null : request.raw }, handler);
    } catch (err) {
      unavailable(err instanceof Error ? err : new Error(String(err)));
    }
  };

  const first = group.pick();
  if (!first) unavailable(null);
  else attempt(first, false);
}
