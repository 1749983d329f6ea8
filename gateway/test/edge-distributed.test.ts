import { generateSigningKeys, TokenSigner, TokenVerifier, type App } from '@countinghouse/kit';
import { EDGE_MESSAGES } from '@countinghouse/proto';
import { Redis } from 'ioredis';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/gateway.js';

// Distributed mode (issue #21): the proxy forwards the normal form of the path the guards judged; the
// sign-in limit is one count across gateway replicas through Redis (the real one `npm test` starts);
// HSTS_MAX_AGE adds Strict-Transport-Security.

const REDIS_URL = process.env.TEST_REDIS_URL;
if (!REDIS_URL) throw new Error('TEST_REDIS_URL is not set: run the tests with npm test');

let upstream: Server;
const seen: string[] = [];
let token = '';
const gateways: App[] = [];
let a = '';
let b = '';
let c = '';
let upstreamBase = '';
let verifier: TokenVerifier;

async function startGateway(
  o: { redisUrl?: string; redisKeyPrefix?: string; hstsMaxAge?: number },
  base: string,
  verifier: TokenVerifier,
): Promise<string> {
  const app = await buildGateway({
    logger: pino({ level: 'silent' }),
    verifier,
    frontendDir: null,
    healthChecks: {},
    publicConfig: () => ({ demoMode: false, maintenance: false, practice: { name: 'P', phone: '0', email: 'p@example.invalid' } }),
    upstreams: { identity: base, crm: base },
    signInMax: 3,
    ...o,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  gateways.push(app);
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** A request with the target exactly as written (fetch would resolve dot segments first). */
function send(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const u = new URL(base);
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (x: Buffer) => chunks.push(x));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  // no counts left from an earlier run within the window
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys('countinghouse:gateway:sign-in:*');
  if (keys.length) await redis.del(...keys);
  await redis.quit();

  upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      const signIn = req.url === '/api/identity/admin/login';
      res.writeHead(signIn ? 401 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(signIn ? { error: { code: 'INVALID_CREDENTIALS', message: 'Invalid credentials' } } : { ok: true }));
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  upstreamBase = base;
  const keys2 = generateSigningKeys();
  const signer = await TokenSigner.fromPem(keys2.privateKeyPem);
  token = (await signer.sign({ sub: '00000000-0000-4000-8000-000000000001', sid: 's1', knd: 'admin', roles: ['admin'], name: 'A' })).token;
  verifier = await TokenVerifier.fromPem(keys2.publicKeyPem);
  a = await startGateway({ redisUrl: REDIS_URL, hstsMaxAge: 31_536_000 }, base, verifier);
  b = await startGateway({ redisUrl: REDIS_URL }, base, verifier);
  c = await startGateway({ redisUrl: 'redis://127.0.0.1:1' }, base, verifier); // a Redis that is not there
});
afterAll(async () => {
  for (const g of gateways) await g.close();
  await new Promise((r) => upstream?.close(r));
});

describe('the proxy forwards the path the guards judged', () => {
  it('sends the normal form upstream, query string untouched', async () => {
    const res = await send(a, 'GET', '/%61pi//crm/x/../t%61sks?q=%2F%00&page=1', { authorization: `Bearer ${token}` });
    expect(res.status).toBe(200);
    expect(seen.at(-1)).toBe('GET /api/crm/tasks?q=%2F%00&page=1');
  });

  it('refuses before the service: cross-site (403), anonymous (401), not normalisable (400)', async () => {
    const before = seen.length;
    const cross = await send(
      a,
      'POST',
      '/%61pi/crm/tasks',
      {
        authorization: `Bearer ${token}`,
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
        'content-type': 'application/json',
      },
      '{"title":"x"}',
    );
    expect(cross.status).toBe(403);
    expect((await send(a, 'GET', '/api/./crm/tasks')).status).toBe(401);
    for (const path of ['/api/crm%2Ftasks', '/%2Fapi/crm/tasks', '/api/../../crm/tasks', '/api\\crm/tasks']) {
      const res = await send(a, 'GET', path, { authorization: `Bearer ${token}` });
      expect(res.status, path).toBe(400);
      expect(JSON.parse(res.body).error).toEqual({ code: 'BAD_REQUEST', message: EDGE_MESSAGES.badRequestTarget });
    }
    expect(seen.length).toBe(before);
  });
});

describe('the sign-in limit across replicas', () => {
  it('is one count for two gateways sharing Redis, whatever the spelling', async () => {
    const post = (base: string, path: string) =>
      send(base, 'POST', path, { 'content-type': 'application/json' }, JSON.stringify({ username: 'admin', password: 'wrong' }));
    const codes = [
      (await post(a, '/api/identity/admin/login')).status,
      (await post(b, '/%61pi/identity/admin/login')).status,
      (await post(a, '//api/identity/./admin/login')).status,
    ];
    expect(codes).toEqual([401, 401, 401]);
    const limited = await post(b, '/api/identity/admin/login');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await post(a, '/api/identity/admin/login')).status).toBe(429);
    // the count lives in Redis, with the window's expiry
    const redis = new Redis(REDIS_URL!);
    const keys = await redis.keys('countinghouse:gateway:sign-in:*');
    expect(keys.length).toBe(1);
    expect(Number(await redis.get(keys[0]!))).toBe(5);
    expect(await redis.pttl(keys[0]!)).toBeGreaterThan(0);
    await redis.quit();
  });

  it("is a product's own: a gateway with another REDIS_KEY_PREFIX on the same Redis keeps its own count", async () => {
    const prefix = `other-${Date.now()}`;
    const d = await startGateway({ redisUrl: REDIS_URL, redisKeyPrefix: prefix }, upstreamBase, verifier);
    const post = (base: string) =>
      send(
        base,
        'POST',
        '/api/identity/admin/login',
        { 'content-type': 'application/json' },
        JSON.stringify({ username: 'admin', password: 'wrong' }),
      );
    // the default product's count is used up (the test above); this one starts from nothing
    expect((await post(a)).status).toBe(429);
    expect([(await post(d)).status, (await post(d)).status, (await post(d)).status]).toEqual([401, 401, 401]);
    expect((await post(d)).status).toBe(429);
    const redis = new Redis(REDIS_URL!);
    const keys = await redis.keys(`${prefix}:gateway:sign-in:*`);
    expect(keys.length).toBe(1);
    expect(Number(await redis.get(keys[0]!))).toBe(4);
    await redis.del(...keys);
    await redis.quit();
  });

  it('counts in memory when Redis is not there, so sign-in still works and is still limited', async () => {
    const post = () =>
      send(c, 'POST', '/api/identity/admin/login', { 'content-type': 'application/json' }, '{"username":"a","password":"b"}');
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await post()).status);
    expect(codes).toEqual([401, 401, 401, 429]);
  });
});

describe('HSTS_MAX_AGE', () => {
  it('adds Strict-Transport-Security when configured, on its own and proxied answers', async () => {
    for (const path of ['/api/public/config', '/health/live', '/no-such-page']) {
      expect((await send(a, 'GET', path)).headers['strict-transport-security'], path).toBe('max-age=31536000; includeSubDomains');
    }
    const proxied = await send(a, 'GET', '/api/crm/tasks', { authorization: `Bearer ${token}` });
    expect(proxied.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('sends none by default', async () => {
    expect((await send(b, 'GET', '/api/public/config')).headers['strict-transport-security']).toBeUndefined();
  });
});
