import { createApp, generateSigningKeys, TokenSigner, TokenVerifier, type App } from '@countinghouse/kit';
import { EDGE_MESSAGES } from '@countinghouse/proto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/gateway.js';
import { bearer, login, startTestGateway, type TestGateway } from './helpers.js';

// Issue 32, item 4: an API that matches its description. A known path asked with another method answers
// 405 with Allow (Fastify answered 404); the error shape on every answer, during a shutdown too (Fastify
// answered its own 503 body on a kept-alive connection).

let gw: TestGateway;
let token = '';

beforeAll(async () => {
  gw = await startTestGateway();
  token = (await login(gw.app)).json<{ session_token: string }>().session_token;
});
afterAll(async () => {
  await gw?.close();
});

describe('405 with Allow for a known path and another method (all-in-one)', () => {
  it('DELETE /api/crm/stats answers 405, Allow: GET, in the error shape', async () => {
    const res = await gw.app.inject({ method: 'DELETE', url: '/api/crm/stats', headers: bearer(token) });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.json()).toEqual({ error: { code: 'METHOD_NOT_ALLOWED', message: EDGE_MESSAGES.methodNotAllowed } });
    // anonymous too: the method is wrong whoever asks
    const anonymous = await gw.app.inject({ method: 'DELETE', url: '/api/crm/stats' });
    expect(anonymous.statusCode).toBe(405);
    expect(anonymous.headers.allow).toBe('GET');
  });

  it('every method a path lacks gets 405 listing the ones it has; the methods it has still work', async () => {
    for (const method of ['PUT', 'PATCH', 'POST'] as const) {
      const res = await gw.app.inject({ method, url: '/api/crm/stats', headers: bearer(token) });
      expect(res.statusCode, method).toBe(405);
      expect(res.headers.allow).toBe('GET');
    }
    expect((await gw.app.inject({ method: 'GET', url: '/api/crm/stats', headers: bearer(token) })).statusCode).toBe(200);
    expect((await gw.app.inject({ method: 'HEAD', url: '/api/crm/stats', headers: bearer(token) })).statusCode).toBe(200);
    // a path with parameters: the route's pattern decides, not the value
    const byId = await gw.app.inject({
      method: 'POST',
      url: '/api/crm/clients/00000000-0000-4000-8000-000000000009',
      headers: bearer(token),
    });
    expect(byId.statusCode).toBe(405);
    expect(byId.headers.allow).toContain('GET');
    expect(byId.headers.allow).not.toContain('POST');
  });

  it('a path of its own beside a parametric route: PATCH /api/deadlines/jobs/board is not PATCH /jobs/:id (schemathesis)', async () => {
    const res = await gw.app.inject({ method: 'PATCH', url: '/api/deadlines/jobs/board', headers: bearer(token), payload: {} });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(res.json()).toEqual({ error: { code: 'METHOD_NOT_ALLOWED', message: EDGE_MESSAGES.methodNotAllowed } });
    // the parametric route still answers its own paths (a job that does not exist: 404, not 405)
    const job = await gw.app.inject({
      method: 'PATCH',
      url: '/api/deadlines/jobs/00000000-0000-4000-8000-000000000009',
      headers: bearer(token),
      payload: {},
    });
    expect(job.statusCode).not.toBe(405);
    // and GET, the method it has, is answered by its own route
    expect((await gw.app.inject({ method: 'GET', url: '/api/deadlines/jobs/board', headers: bearer(token) })).statusCode).not.toBe(405);
  });

  it('methods Fastify has no route for (QUERY, TRACE) and a plugin root with its slash get 405 too', async () => {
    for (const method of ['QUERY', 'TRACE']) {
      const res = await gw.app.inject({ method: method as 'GET', url: '/api/crm/stats', headers: bearer(token) });
      expect(res.statusCode, method).toBe(405);
      expect(res.headers.allow).toBe('GET');
    }
    const root = await gw.app.inject({ method: 'TRACE' as 'GET', url: '/api/aml/', headers: bearer(token) });
    expect(root.statusCode).toBe(405);
  });

  it('a path parameter longer than the router takes answers 414 in the error shape (not Fastify’s own body)', async () => {
    const res = await gw.app.inject({ method: 'GET', url: `/api/crm/clients/${'a'.repeat(300)}`, headers: bearer(token) });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ error: { code: 'BAD_REQUEST', message: EDGE_MESSAGES.badRequestTarget } });
  });

  it('an unknown path is still 404 (whatever the method); a query string does not change the answer', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await gw.app.inject({ method, url: '/api/crm/no-such-thing', headers: bearer(token) });
      expect(res.statusCode).toBe(404);
      expect(res.headers.allow).toBeUndefined();
    }
    const q = await gw.app.inject({ method: 'DELETE', url: '/api/crm/stats?x=1', headers: bearer(token) });
    expect(q.statusCode).toBe(405);
  });
});

describe('405 with the frontend fallback (the gateway serving the built UI)', () => {
  let app: App;
  let dir = '';
  let auth: Record<string, string> = {};
  beforeAll(async () => {
    const keys = generateSigningKeys();
    const signed = await (
      await TokenSigner.fromPem(keys.privateKeyPem)
    ).sign({ sub: '00000000-0000-4000-8000-000000000001', sid: 's1', knd: 'admin', roles: ['admin'], name: 'A' });
    auth = { authorization: `Bearer ${signed.token}` };
    dir = mkdtempSync(join(tmpdir(), 'ch-405-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
    app = await buildGateway({
      logger: pino({ level: 'silent' }),
      verifier: await TokenVerifier.fromPem(keys.publicKeyPem),
      frontendDir: dir,
      healthChecks: {},
      publicConfig: () => ({ demoMode: false, maintenance: false, practice: { name: 'P', phone: '0', email: 'p@example.invalid' } }),
      plugins: [{ name: 'things', register: async (scope) => void scope.get('/list', async () => ({ ok: true })) }],
    });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a known API path asked with another method is 405; an unknown one 404; a page still the UI', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/api/things/list', headers: auth });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect((await app.inject({ method: 'DELETE', url: '/api/things/other', headers: auth })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/clients' })).headers['content-type']).toContain('text/html');
    // /api/public/config is the gateway's own GET
    const config = await app.inject({ method: 'POST', url: '/api/public/config', headers: auth });
    expect(config.statusCode).toBe(405);
    expect(config.headers.allow).toBe('GET');
  });
});

describe('during a shutdown', () => {
  it('a request arriving on a kept-alive connection while the server closes gets 503 in the error shape', async () => {
    const app = createApp({ logger: pino({ level: 'silent' }) });
    let release: () => void = () => {};
    let started: () => void = () => {};
    const inFlight = new Promise<void>((r) => (started = r));
    app.get('/slow', async () => {
      started();
      await new Promise<void>((r) => (release = r));
      return { ok: true };
    });
    app.get('/fast', async () => ({ ok: true }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const port = (app.server.address() as AddressInfo).port;
    // one kept-alive connection, busy (so the close leaves it open); a second request arrives on it meanwhile
    const socket = connect(port, '127.0.0.1');
    let raw = '';
    socket.on('data', (d: Buffer) => (raw += d.toString()));
    const ended = new Promise<void>((r) => socket.on('close', () => r()));
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    await inFlight;
    const closed = app.close();
    await new Promise((r) => setTimeout(r, 50));
    socket.write('GET /fast HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    await new Promise((r) => setTimeout(r, 50));
    release();
    await Promise.race([ended, new Promise((r) => setTimeout(r, 5000))]);
    socket.destroy();
    await closed;
    const answers = raw.split(/(?=HTTP\/1\.1 )/);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(answers).toHaveLength(2);
    expect(answers[1]).toMatch(/^HTTP\/1\.1 503/);
    const body = answers[1]!.slice(answers[1]!.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body)).toEqual({ error: { code: 'SHUTTING_DOWN', message: EDGE_MESSAGES.shuttingDown } });
    expect(answers[1]!.toLowerCase()).toContain('connection: close');
  });
});
