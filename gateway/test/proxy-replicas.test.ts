import { generateSigningKeys, TokenSigner, TokenVerifier, type App } from '@countinghouse/kit';
import { MESSAGES } from '@countinghouse/proto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/gateway.js';
import type { UpstreamOptions } from '../src/proxy.js';
import { freePort } from '../../tests/processes.js';

// Replicas behind the gateway (gateway/src/proxy.ts): round robin over the healthy ones, a replica whose
// connection fails left out (passive) and one whose /health/ready fails skipped (active), a GET retried
// once on another replica, a write repeated only when it never reached one (connection refused), else 503.

interface FakeReplica {
  name: string;
  port: number;
  url: string;
  server: Server | null;
  hits: string[];
  /** How many /health/ready checks it has answered. */
  checks: number;
  ready: boolean;
  /** Read a write's body, then drop the connection without answering (a replica dying mid-request). */
  dropWrites: boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
}

async function fakeReplica(name: string): Promise<FakeReplica> {
  const port = await freePort();
  const r: FakeReplica = {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    server: null,
    hits: [],
    checks: 0,
    ready: true,
    dropWrites: false,
    async start() {
      const server = createServer((req, res) => {
        if (req.url === '/health/ready') {
          r.checks++;
          res.writeHead(r.ready ? 200 : 503, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ status: r.ready ? 'ok' : 'degraded' }));
          return;
        }
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          // (the gateway's own fetch of the OpenAPI document is not a proxied request)
          if (!req.url?.endsWith('/openapi.json')) r.hits.push(`${req.method} ${req.url}`);
          if (r.dropWrites && req.method !== 'GET') {
            req.socket.destroy();
            return;
          }
          res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', connection: 'close' });
          res.end(JSON.stringify({ replica: name, body: Buffer.concat(chunks).toString() }));
        });
      });
      await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
      r.server = server;
    },
    async stop() {
      const s = r.server;
      r.server = null;
      if (!s) return;
      s.closeAllConnections();
      await new Promise((ok) => s.close(ok));
    },
  };
  await r.start();
  return r;
}

let token = '';
let verifier: TokenVerifier;
const gateways: App[] = [];
const replicas: FakeReplica[] = [];

beforeAll(async () => {
  const keys = generateSigningKeys();
  const signer = await TokenSigner.fromPem(keys.privateKeyPem);
  token = (await signer.sign({ sub: '00000000-0000-4000-8000-000000000001', sid: 's1', knd: 'admin', roles: ['admin'], name: 'A' })).token;
  verifier = await TokenVerifier.fromPem(keys.publicKeyPem);
});
afterEach(async () => {
  await Promise.all(gateways.splice(0).map((g) => g.close()));
  await Promise.all(replicas.splice(0).map((r) => r.stop()));
});
afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
});

/** A gateway listening in front of `urls` (as the one service `svc`, or several services by name). */
async function gatewayFor(urls: string | Record<string, string>, o: UpstreamOptions): Promise<string> {
  const gw = await buildGateway({
    logger: pino({ level: 'silent' }),
    verifier,
    frontendDir: null,
    healthChecks: {},
    publicConfig: () => ({ demoMode: false, maintenance: false, practice: { name: 'P', phone: '0', email: 'p@example.invalid' } }),
    upstreams: typeof urls === 'string' ? { svc: urls } : urls,
    upstreamOptions: o,
  });
  await gw.listen({ host: '127.0.0.1', port: 0 });
  gateways.push(gw);
  return `http://127.0.0.1:${(gw.server.address() as AddressInfo).port}`;
}

async function three(): Promise<[FakeReplica, FakeReplica, FakeReplica]> {
  const r = await Promise.all(['a', 'b', 'c'].map(fakeReplica));
  replicas.push(...r);
  return r as [FakeReplica, FakeReplica, FakeReplica];
}

const auth = () => ({ authorization: `Bearer ${token}` });
const get = (base: string, path = '/api/svc/list') => fetch(`${base}${path}`, { headers: auth() });
const post = (base: string) =>
  fetch(`${base}/api/svc/items`, { method: 'POST', headers: { ...auth(), 'content-type': 'text/plain' }, body: 'new item' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('replicas behind the gateway', () => {
  it('spreads requests round robin over every replica of a comma-separated *_URL', async () => {
    const [a, b, c] = await three();
    const base = await gatewayFor(`${a.url}, ${b.url},${c.url}`, { healthIntervalMs: 0 });
    const answered: string[] = [];
    for (let i = 0; i < 9; i++) answered.push(((await (await get(base)).json()) as { replica: string }).replica);
    expect(answered).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c']);
  });

  it('a stopped replica: every GET still answers (retried once elsewhere) and it is left out afterwards', async () => {
    const [a, b, c] = await three();
    const base = await gatewayFor([a.url, b.url, c.url].join(','), { healthIntervalMs: 0, ejectMs: 60_000 });
    await b.stop();
    const statuses: number[] = [];
    const answered: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await get(base);
      statuses.push(res.status);
      answered.push(((await res.json()) as { replica: string }).replica);
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(answered).not.toContain('b');
    expect(new Set(answered)).toEqual(new Set(['a', 'c']));
  });

  it('a write whose replica refused the connection goes to another one (it never left the gateway), body and all', async () => {
    const [a, b] = await three();
    const base = await gatewayFor([a.url, b.url].join(','), { healthIntervalMs: 0, ejectMs: 60_000 });
    await a.stop();
    const first = await post(base);
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ replica: 'b', body: 'new item' });
    expect(b.hits).toEqual(['POST /api/svc/items']); // once
    const second = await post(base);
    expect(second.status).toBe(201);
    expect(b.hits).toEqual(['POST /api/svc/items', 'POST /api/svc/items']);
  });

  it('a write that reached a replica which then dropped the connection answers 503 in the error shape and is not repeated', async () => {
    const [a, b] = await three();
    a.dropWrites = true;
    const base = await gatewayFor([a.url, b.url].join(','), { healthIntervalMs: 0, ejectMs: 60_000 });
    const first = await post(base);
    expect(first.status).toBe(503);
    expect(await first.json()).toEqual({ error: { code: 'UPSTREAM_UNAVAILABLE', message: MESSAGES.serviceUnavailable } });
    expect(a.hits).toEqual(['POST /api/svc/items']); // it got there
    expect(b.hits).toEqual([]); // not retried: a write that may have been applied is never sent twice
    const second = await post(base);
    expect(second.status).toBe(201);
    expect(await second.json()).toEqual({ replica: 'b', body: 'new item' });
  });

  it('a replica left out and back before its time is up takes the requests when the other one dies', async () => {
    const [a, b] = await three();
    const base = await gatewayFor([a.url, b.url].join(','), { healthIntervalMs: 0, ejectMs: 60_000 });
    await a.stop();
    for (let i = 0; i < 2; i++) expect((await get(base)).status).toBe(200); // a refused: left out for a minute
    await a.start(); // a restarted, b dies: a is all there is, left out or not
    await b.stop();
    a.hits.length = 0;
    expect((await get(base)).status).toBe(200);
    expect((await post(base)).status).toBe(201);
    expect(a.hits).toEqual(['GET /api/svc/list', 'POST /api/svc/items']);
  });

  it('every replica down: 503 for reads and writes alike', async () => {
    const [a, b] = await three();
    const base = await gatewayFor([a.url, b.url].join(','), { healthIntervalMs: 0 });
    await a.stop();
    await b.stop();
    for (const res of [await get(base), await post(base), await get(base)]) {
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UPSTREAM_UNAVAILABLE');
    }
  });

  it('active checks: a replica whose /health/ready fails gets no traffic until it is ready again', async () => {
    const [a, b] = await three();
    const base = await gatewayFor([a.url, b.url].join(','), { healthIntervalMs: 100 });
    a.ready = false;
    await sleep(400);
    a.hits.length = 0;
    for (let i = 0; i < 6; i++) expect((await get(base)).status).toBe(200);
    expect(a.hits).toEqual([]);
    a.ready = true;
    await sleep(400);
    for (let i = 0; i < 6; i++) await get(base);
    expect(a.hits.length).toBe(3);
  });

  it('when no replica is ready (say Kafka is down for all) requests still go to the ones that answer', async () => {
    const [a, b] = await three();
    const base = await gatewayFor([a.url, b.url].join(','), { healthIntervalMs: 100 });
    a.ready = false;
    b.ready = false;
    await sleep(400);
    for (let i = 0; i < 4; i++) expect((await get(base)).status).toBe(200);
    expect(a.hits.length + b.hits.length).toBe(4);
  });

  it('checks seldom while every replica is ready, often while one is left out, then seldom again', async () => {
    const [a, b] = await three();
    const base = await gatewayFor([a.url, b.url].join(','), { healthIntervalMs: 60_000, healthRecheckMs: 100, ejectMs: 60_000 });
    await sleep(400);
    expect([a.checks, b.checks]).toEqual([1, 1]); // the first check at start; the next in a minute
    await a.stop();
    for (let i = 0; i < 4; i++) expect((await get(base)).status).toBe(200); // a refused: left out
    await sleep(450);
    expect(b.checks).toBeGreaterThanOrEqual(3); // every 100 ms while a is out
    await a.start();
    await sleep(300);
    a.hits.length = 0;
    for (let i = 0; i < 4; i++) await get(base);
    expect(a.hits.length).toBe(2); // back, well before its minute of ejection
    const settled = b.checks;
    await sleep(400);
    expect(b.checks).toBe(settled); // every replica ready: quiet again
  });

  it('a replica left out comes back once its health check answers again', async () => {
    const [a, b] = await three();
    const base = await gatewayFor([a.url, b.url].join(','), { healthIntervalMs: 150, ejectMs: 60_000 });
    await a.stop();
    for (let i = 0; i < 4; i++) expect((await get(base)).status).toBe(200);
    await a.start();
    await sleep(500);
    a.hits.length = 0;
    for (let i = 0; i < 4; i++) await get(base);
    expect(a.hits.length).toBe(2);
  });
});

describe('the API document', () => {
  it('is asked once of each set of processes: /api/jobs, served by notifications, is in its document already', async () => {
    const asked: string[] = [];
    const port = await freePort();
    const server = createServer((req, res) => {
      if (req.url?.endsWith('/openapi.json')) asked.push(req.url);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ openapi: '3.0.3', paths: {} }));
    });
    await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
    try {
      const url = `http://127.0.0.1:${port}`;
      await gatewayFor({ notifications: url, jobs: url, crm: `${url},${url}/` }, { healthIntervalMs: 0 });
      const until = Date.now() + 10_000;
      while (asked.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 200));
      expect(asked.sort()).toEqual(['/api/crm/openapi.json', '/api/notifications/openapi.json']);
    } finally {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    }
  });
});
