import { EDGE_MESSAGES } from '@countinghouse/proto';
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from './errors.js';

/**
 * The gateway as the only door (issue 32, item 3). In distributed mode the gateway signs every request it
 * forwards with an Ed25519 key only it holds (DATA_DIR/keys/gateway-ed25519.pem, GATEWAY_SIGNING_KEY_FILE);
 * each service holds the public half (GATEWAY_PUBLIC_KEY_FILE) and answers 401 to anything unsigned, signed
 * with another key, signed for another method or path, older than the window, or seen before: a caller who
 * reaches a service's port directly no longer skips the gateway's sign-in limit and cross-site check.
 * Health routes stay open (load balancers, the gateway's own checks). An Ed25519 pair rather than one
 * shared HMAC secret: a service that leaks its key cannot sign requests to the other services.
 *
 * Header: `x-gateway-signature: v1.<unix seconds>.<nonce>.<signature, base64url>` over
 * `v1\n<METHOD>\n<path and query>\n<unix seconds>\n<nonce>`.
 */
export const GATEWAY_SIGNATURE_HEADER = 'x-gateway-signature';
/** How far (seconds) the signed time may be from the service's clock, either way. */
export const GATEWAY_SIGNATURE_WINDOW_S = 30;

function payload(method: string, path: string, ts: string, nonce: string): Buffer {
  return Buffer.from(`v1\n${method.toUpperCase()}\n${path}\n${ts}\n${nonce}`);
}

export function generateGatewayKeys(): { privateKeyPem: string; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** The gateway's side: one header value per forwarded request. */
export class GatewaySigner {
  private readonly key: KeyObject;
  constructor(privateKeyPem: string) {
    this.key = createPrivateKey(privateKeyPem);
    if (this.key.asymmetricKeyType !== 'ed25519') throw new Error('the gateway signing key must be an Ed25519 private key');
  }

  sign(method: string, path: string, now = Date.now()): string {
    const ts = String(Math.floor(now / 1000));
    const nonce = randomBytes(12).toString('base64url');
    const sig = sign(null, payload(method, path, ts, nonce), this.key).toString('base64url');
    return `v1.${ts}.${nonce}.${sig}`;
  }

  /** Headers for a request the gateway makes itself (the services' OpenAPI documents, the settings). */
  headers(method: string, path: string): Record<string, string> {
    return { [GATEWAY_SIGNATURE_HEADER]: this.sign(method, path) };
  }
}

export type SignatureCheck = { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'bad signature' | 'replayed' };

/** A service's side: checks a header value; a nonce is accepted once within the window. */
export class GatewaySignatureVerifier {
  private readonly key: KeyObject;
  /** Nonces seen within the window → when they can be forgotten (ms). */
  private readonly seen = new Map<string, number>();
  private lastSweep = 0;

  constructor(publicKeyPem: string) {
    this.key = createPublicKey(publicKeyPem);
    if (this.key.asymmetricKeyType !== 'ed25519') throw new Error('the gateway public key must be an Ed25519 public key');
  }

  check(method: string, path: string, header: string | string[] | undefined, now = Date.now()): SignatureCheck {
    if (header === undefined || header === '') return { ok: false, reason: 'missing' };
    if (typeof header !== 'string') return { ok: false, reason: 'malformed' };
    const m = /^v1\.(\d{1,12})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{86})$/.exec(header);
    if (!m) return { ok: false, reason: 'malformed' };
    const [ts, nonce, sig] = [m[1]!, m[2]!, m[3]!];
    if (Math.abs(now / 1000 - Number(ts)) > GATEWAY_SIGNATURE_WINDOW_S) return { ok: false, reason: 'stale' };
    if (!verify(null, payload(method, path, ts, nonce), this.key, Buffer.from(sig, 'base64url')))
      return { ok: false, reason: 'bad signature' };
    this.sweep(now);
    if (this.seen.has(nonce)) return { ok: false, reason: 'replayed' };
    this.seen.set(nonce, now + 2 * GATEWAY_SIGNATURE_WINDOW_S * 1000);
    return { ok: true };
  }

  private sweep(now: number) {
    if (now - this.lastSweep < 5000) return;
    this.lastSweep = now;
    for (const [nonce, until] of this.seen) if (until < now) this.seen.delete(nonce);
  }
}

/** Paths a service answers without the gateway's signature: its health routes, plus what it names (GET only). */
export const UNSIGNED_PATHS = new Set(['/health/live', '/health/ready']);

/**
 * Refuse (401, the error shape) every request without a valid gateway signature, before any other hook
 * sees it, except the health routes and `openGets` (public reads other services fetch directly, e.g. the
 * settings service's public settings).
 */
export function requireGatewaySignature(app: FastifyInstance, verifier: GatewaySignatureVerifier, openGets: string[] = []) {
  const open = new Set(openGets);
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    // (the target as it arrived: what the gateway signed, before the router's normal form)
    const raw = request.originalUrl;
    const pathOnly = raw.split('?', 1)[0]!;
    if (UNSIGNED_PATHS.has(pathOnly) && (request.method === 'GET' || request.method === 'HEAD')) return;
    if (open.has(pathOnly) && (request.method === 'GET' || request.method === 'HEAD')) return;
    const result = verifier.check(request.method, raw, request.headers[GATEWAY_SIGNATURE_HEADER]);
    if (result.ok) return;
    request.log.warn(
      { method: request.method, url: raw, reason: result.reason, ip: request.socket.remoteAddress },
      'request without the gateway signature refused',
    );
    return sendError(reply, 401, 'GATEWAY_SIGNATURE_REQUIRED', EDGE_MESSAGES.gatewayOnly);
  });
}
