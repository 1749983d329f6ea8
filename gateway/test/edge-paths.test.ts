import { EDGE_MESSAGES, MESSAGES } from '@countinghouse/proto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, makePerson, startTestGateway, type Person, type TestGateway } from './helpers.js';

// Issue #21, item 1, as attacks: the gateway's guards must decide on the path the router routes.
// Before, `/%61pi/...` reached the API while every guard saw a non-API path.
// Requests go over a real socket, with the request target exactly as written (app.inject would
// resolve `..` and backslashes itself before the gateway saw them).

interface RawAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json(): { error: { code: string; message: string } } & Record<string, unknown>;
}
let base = { host: '127.0.0.1', port: 0 };

function send(o: { method: string; url: string; headers?: Record<string, string>; payload?: object }): Promise<RawAnswer> {
  const body = o.payload ? JSON.stringify(o.payload) : undefined;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        ...base,
        method: o.method,
        path: o.url,
        headers: {
          ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
          ...o.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ statusCode: res.statusCode!, headers: res.headers, body: text, json: () => JSON.parse(text) });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

let gw: TestGateway;
let staff: Person;
const CROSS_SITE = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };

// Spellings of /api/crm/tasks a router could take for it.
const TASKS_ALIASES = [
  '/%61pi/crm/tasks',
  '/%61%70%69/crm/t%61sks',
  '/api/./crm/tasks',
  '//api/crm/tasks',
  '/api//crm/tasks',
  '/api/crm/../crm/tasks',
  '/api/crm/%2e%2e/crm/tasks',
  '/api/x/../crm/./tasks',
];
// Spellings that do not normalise: refused before any guard or route.
const REFUSED = [
  '/%2Fapi/crm/tasks',
  '/api/crm%2Ftasks',
  '/api/crm%2ftasks',
  '/api%5Ccrm/tasks',
  '/api\\crm/tasks',
  '/api/../../crm/tasks',
  '/api/crm/tasks%00',
  '/api/crm/%zz',
  '/api/crm/%ff',
];

beforeAll(async () => {
  gw = await startTestGateway({ signInMax: 3 });
  staff = await makePerson(gw, 'edge.staff@example.com', ['admin']);
  await gw.app.listen({ host: '127.0.0.1', port: 0 });
  base = { host: '127.0.0.1', port: (gw.app.server.address() as AddressInfo).port };
});
afterAll(async () => {
  await gw?.close();
});

describe('the sign-in limit', () => {
  it('counts every spelling of the admin sign-in towards one limit (429 after it)', async () => {
    const spellings = [
      '/%61pi/identity/admin/login',
      '//api/identity/admin/login',
      '/api/./identity/admin/l%6Fgin',
      '/api/identity/x/../admin/login',
    ];
    const codes: number[] = [];
    for (const url of spellings) {
      const res = await send({
        method: 'POST',
        url,
        payload: { username: ADMIN.username, password: 'wrong' },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([401, 401, 401, 429]);
    // and fifteen more through the encoded path are all refused by the limit, never tried
    for (let i = 0; i < 15; i++) {
      const res = await send({
        method: 'POST',
        url: '/%61pi/identity/admin/login',
        payload: ADMIN,
      });
      expect(res.statusCode).toBe(429);
      expect(res.json().error.code).toBe('RATE_LIMITED');
    }
  });
});

describe('cross-site refusal', () => {
  it.each(TASKS_ALIASES)('refuses a cross-site POST %s with a staff cookie (403)', async (url) => {
    const res = await send({
      method: 'POST',
      url,
      headers: { cookie: staff.cookie, ...CROSS_SITE },
      payload: { title: 'Planted by another site' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toEqual({ code: 'CROSS_SITE_REQUEST', message: MESSAGES.crossSiteRefused });
  });

  it('wrote no task', async () => {
    const { rows } = await gw.kit.runtime.pool.query(`select count(*)::int as n from crm.tasks where title = 'Planted by another site'`);
    expect(rows[0].n).toBe(0);
  });

  it('routes an odd spelling from our own site like the plain path (201)', async () => {
    const res = await send({
      method: 'POST',
      url: '/%61pi/crm//tasks',
      headers: { cookie: staff.cookie, origin: `http://127.0.0.1:${base.port}`, 'sec-fetch-site': 'same-origin' },
      payload: { title: 'Made through an odd spelling' },
    });
    expect(res.statusCode).toBe(201);
  });
});

describe('the token gate', () => {
  it.each(TASKS_ALIASES)('answers an anonymous GET %s with 401', async (url) => {
    const res = await send({ method: 'GET', url });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNAUTHENTICATED');
  });

  it.each(TASKS_ALIASES)('serves %s to staff as /api/crm/tasks', async (url) => {
    const res = await send({ method: 'GET', url, headers: { cookie: staff.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveProperty('tasks');
  });

  it('treats /API/ as a page address, not the API (the router is case-sensitive): no data either way', async () => {
    for (const headers of [{}, { cookie: staff.cookie }] as Array<Record<string, string>>) {
      const res = await send({ method: 'GET', url: '/API/crm/tasks', headers });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('tasks');
    }
  });
});

describe('request targets that do not normalise', () => {
  it.each(REFUSED)('refuses %s with 400 in the error shape, signed in or not, cross-site or not', async (url) => {
    for (const headers of [{}, { cookie: staff.cookie }, { cookie: staff.cookie, ...CROSS_SITE }] as Array<Record<string, string>>) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await send({ method, url, headers, ...(method === 'POST' ? { payload: { title: 'x' } } : {}) });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toEqual({ code: 'BAD_REQUEST', message: EDGE_MESSAGES.badRequestTarget });
        expect(res.headers['x-content-type-options']).toBe('nosniff'); // the security headers came first
      }
    }
  });

  it('refuses the admin sign-in with an encoded slash without counting or trying it', async () => {
    const res = await send({ method: 'POST', url: '/api/identity/admin%2Flogin', payload: ADMIN });
    expect(res.statusCode).toBe(400);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('pages', () => {
  it('redirects a page asked for by an odd spelling to its normal form (so the UI decides maintenance on it)', async () => {
    for (const [url, location] of [
      ['/%61dmin/login', '/admin/login'],
      ['/admin/./settings', '/admin/settings'],
      ['//evil.example/x', '/evil.example/x'], // never a protocol-relative Location
      ['/packages/../admin?x=1', '/admin?x=1'],
    ]) {
      const res = await send({ method: 'GET', url: url! });
      expect(res.statusCode, url).toBe(308);
      expect(res.headers.location).toBe(location);
    }
  });
});
