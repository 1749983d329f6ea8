import { generateSigningKeys, TokenSigner, TokenVerifier, type App } from '@countinghouse/kit';
import { MESSAGES } from '@countinghouse/proto';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/gateway.js';

// Distributed mode's proxy (gateway/src/proxy.ts) against a plain HTTP server standing in for a service:
// what goes up (method, path, query, headers, a streamed body), what comes back (status, headers, a
// streamed body, cookies), a service that is down, and a client that goes away mid-answer.

const BIG = randomBytes(6 * 1024 * 1024);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let upstream: Server;
let gateway: App;
let gatewayUrl = '';
let token = '';
const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; bodySha: string; bodyLength: number }> = [];
let aborted = 0;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    if (req.url?.startsWith('/api/svc/slow-download')) {
      // a long answer the client abandons: the upstream socket must be closed by the gateway
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const timer = setInterval(() => res.write(randomBytes(64 * 1024)), 5);
      res.on('close', () => {
        clearInterval(timer);
        if (!res.writableFinished) aborted++;
      });
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, bodySha: sha(body), bodyLength: body.length });
      if (req.url?.startsWith('/api/svc/download')) {
        res.writeHead(200, {
          'content-type': 'application/pdf',
          'content-length': String(BIG.length),
          'content-disposition': 'attachment; filename="a.pdf"',
        });
        res.end(BIG);
        return;
      }
      if (req.url?.startsWith('/api/svc/missing')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'Not here' } }));
        return;
      }
      res.writeHead(201, {
        'content-type': 'application/json',
        'set-cookie': ['a=1; Path=/', 'b=2; Path=/'],
        connection: 'keep-alive',
        'x-service': 'svc',
      });
      res.end(JSON.stringify({ ok: true, length: body.length, sha: sha(body) }));
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

  const keys = generateSigningKeys();
  const signer = await TokenSigner.fromPem(keys.privateKeyPem);
  token = (await signer.sign({ sub: '00000000-0000-4000-8000-000000000001', sid: 's1', knd: 'admin', roles: ['admin'], name: 'A' })).token;
  gateway = await buildGateway({
    logger: pino({ level: 'silent' }),
    verifier: await TokenVerifier.fromPem(keys.publicKeyPem),
    frontendDir: null,
    healthChecks: {},
    publicConfig: () => ({ demoMode: false, maintenance: false, practice: { name: 'P', phone: '0', email: 'p@example.invalid' } }),
    upstreams: { svc: base, down: 'http://127.0.0.1:1' },
  });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  gatewayUrl = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await gateway?.close();
  await new Promise((r) => upstream?.close(r));
});

const auth = () => ({ authorization: `Bearer ${token}` });

describe('the distributed proxy', () => {
  it('streams a 6 MB body up and answers with the service status, headers, cookies and body', async () => {
    const res = await fetch(`${gatewayUrl}/api/svc/files?x=1&y=%C2%A3`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/octet-stream', 'x-request-id': 'req-proxy-1', connection: 'keep-alive' },
      body: BIG,
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ ok: true, length: BIG.length, sha: sha(BIG) });
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(res.headers.get('x-service')).toBe('svc');
    expect(res.headers.get('x-request-id')).toBe('req-proxy-1');
    // the gateway's own security headers go with a proxied answer
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const up = seen.at(-1)!;
    expect(up).toMatchObject({ method: 'POST', url: '/api/svc/files?x=1&y=%C2%A3', bodyLength: BIG.length, bodySha: sha(BIG) });
    expect(up.headers['x-request-id']).toBe('req-proxy-1');
    expect(up.headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(up.headers.authorization).toBe(`Bearer ${token}`);
    expect(up.headers.host).not.toContain(new URL(gatewayUrl).port);
  });

  it('streams a 6 MB download back byte for byte, and passes error answers through as they are', async () => {
    const res = await fetch(`${gatewayUrl}/api/svc/download/1`, { headers: auth() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="a.pdf"');
    expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(sha(BIG));
    const missing = await fetch(`${gatewayUrl}/api/svc/missing`, { headers: auth() });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Not here' } });
    const head = await fetch(`${gatewayUrl}/api/svc/download/1`, { method: 'HEAD', headers: auth() });
    expect(head.status).toBe(200);
    expect(seen.at(-1)!.method).toBe('HEAD');
  });

  it('still refuses a request without a token before it reaches the service', async () => {
    const before = seen.length;
    const res = await fetch(`${gatewayUrl}/api/svc/files`, { method: 'POST', body: 'x' });
    expect(res.status).toBe(401);
    expect(seen.length).toBe(before);
  });

  it('answers 503 in the error shape when the service cannot be reached', async () => {
    const res = await fetch(`${gatewayUrl}/api/down/anything`, { headers: auth() });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: { code: 'UPSTREAM_UNAVAILABLE', message: MESSAGES.serviceUnavailable } });
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('closes the upstream request when the client goes away mid-answer', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(`${gatewayUrl}/api/svc/slow-download`, { headers: auth() }, (res) => {
        let got = 0;
        res.on('data', (c: Buffer) => {
          got += c.length;
          if (got > 256 * 1024) {
            req.destroy();
            resolve();
          }
        });
      });
      req.on('error', (e) => (e.message.includes('socket hang up') ? resolve() : reject(e)));
      req.end();
    });
    const until = Date.now() + 5000;
    while (aborted === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(aborted).toBe(1);
  });
});
