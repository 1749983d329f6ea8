import { MESSAGES, topicOf } from '@countinghouse/proto';
import { waitFor } from '@countinghouse/kit/testing';
import { generateSigningKeys, TokenSigner } from '@countinghouse/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, cookieHeader, login, startTestGateway, type TestGateway } from './helpers.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
});

function errorOf(res: { json(): unknown }) {
  return (res.json() as { error: { code: string; message: string } }).error;
}

describe('administrator sign-in', () => {
  it('signs in, sets httpOnly cookies and answers the admin-auth shape', async () => {
    const res = await login(gw.app);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, user: { username: ADMIN.username, role: 'admin' } });
    expect(typeof body.session_token).toBe('string');
    expect(new Date(body.expires_at).getTime()).toBeGreaterThan(Date.now() + 7 * 3600_000);
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    const access = cookies.find((c) => c.startsWith('ch_at='));
    const refresh = cookies.find((c) => c.startsWith('ch_admin_rt='));
    expect(access).toMatch(/HttpOnly/i);
    expect(access).toMatch(/SameSite=Lax/i);
    expect(refresh).toMatch(/Path=\/api\/identity\/admin/);
  });

  it('is case-insensitive on the username', async () => {
    const res = await login(gw.app, { username: ADMIN.username.toUpperCase(), password: ADMIN.password });
    expect(res.statusCode).toBe(200);
  });

  it("refuses a wrong password and an unknown user alike with 'Invalid credentials'", async () => {
    const wrong = await login(gw.app, { username: ADMIN.username, password: 'nope' });
    const unknown = await login(gw.app, { username: 'nobody', password: 'nope' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(errorOf(res)).toEqual({ code: 'INVALID_CREDENTIALS', message: MESSAGES.invalidCredentials });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('publishes identity.admin_signed_in through the outbox', async () => {
    const seen: unknown[] = [];
    await gw.kit.runtime.bus.subscribe({
      group: 'test.signed-in',
      topics: [topicOf('identity.admin_signed_in')], // a topic of its own (proto's OWN_TOPICS, decision 670)
      handler: async (e) => {
        if (e.type === 'identity.admin_signed_in') seen.push(e);
      },
    });
    const res = await login(gw.app);
    const userId = res.json().user.id;
    const event = await waitFor(
      () => seen.find((e) => (e as { data: { adminId: string } }).data.adminId === userId),
      'the signed-in event',
    );
    expect(event).toMatchObject({ type: 'identity.admin_signed_in', version: 1, actor: { kind: 'admin', id: userId } });
    const { rows } = await gw.kit.runtime.pool.query(
      `select count(*)::int as n from identity.outbox where type = 'identity.admin_signed_in' and published_at is null`,
    );
    await waitFor(
      async () =>
        (await gw.kit.runtime.pool.query(`select count(*)::int as n from identity.outbox where published_at is null`)).rows[0].n === 0,
      'outbox drained',
    );
    expect(rows[0].n).toBeGreaterThanOrEqual(0);
  });
});

describe('bad input gets the error shape and a 4xx', () => {
  const cases: Array<[string, unknown]> = [
    ['empty body', {}],
    ['missing password', { username: 'a' }],
    ['empty strings', { username: '', password: '' }],
    ['wrong types', { username: 12, password: true }],
    ['overlong username', { username: 'x'.repeat(101), password: 'p' }],
    ['overlong password', { username: 'a', password: 'p'.repeat(201) }],
    ['unexpected field', { username: 'a', password: 'b', role: 'admin' }],
  ];
  for (const [label, body] of cases) {
    it(label, async () => {
      const res = await login(gw.app, body);
      expect(res.statusCode).toBe(400);
      expect(errorOf(res).code).toBe('VALIDATION_FAILED');
    });
  }
  it('malformed JSON', async () => {
    const res = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/admin/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toBeTruthy();
  });
  it('no session rows are written by refused sign-ins', async () => {
    const before = (await gw.kit.runtime.pool.query('select count(*)::int as n from identity.admin_sessions')).rows[0].n;
    await login(gw.app, { username: ADMIN.username, password: 'wrong' });
    await login(gw.app, { username: 'x'.repeat(300), password: 'y' });
    const after = (await gw.kit.runtime.pool.query('select count(*)::int as n from identity.admin_sessions')).rows[0].n;
    expect(after).toBe(before);
  });
});

describe('the access guard', () => {
  const verify = (headers: Record<string, string> = {}) => gw.app.inject({ method: 'GET', url: '/api/identity/admin/session', headers });

  it('no token: 401 UNAUTHENTICATED', async () => {
    const res = await verify();
    expect(res.statusCode).toBe(401);
    expect(errorOf(res).code).toBe('UNAUTHENTICATED');
  });

  it('a valid token by cookie or bearer: 200', async () => {
    const res = await login(gw.app);
    const byCookie = await verify({ cookie: cookieHeader(res.headers['set-cookie']) });
    const byBearer = await verify({ authorization: `Bearer ${res.json().session_token}` });
    expect(byCookie.statusCode).toBe(200);
    expect(byBearer.statusCode).toBe(200);
    expect(byBearer.json()).toMatchObject({ success: true, user: { username: ADMIN.username } });
  });

  it('an expired token: 401 SESSION_EXPIRED', async () => {
    const res = await login(gw.app);
    const { user } = res.json();
    const sid = JSON.parse(Buffer.from(res.json().session_token.split('.')[1], 'base64url').toString()).sid;
    const { token } = await gw.kit.signer.sign({ sub: user.id, sid, knd: 'admin', roles: ['admin'], name: user.username }, -30);
    const r = await verify({ authorization: `Bearer ${token}` });
    expect(r.statusCode).toBe(401);
    expect(errorOf(r)).toEqual({ code: 'SESSION_EXPIRED', message: MESSAGES.adminSessionExpired });
  });

  it('a tampered token: 401', async () => {
    const token: string = (await login(gw.app)).json().session_token;
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    claims.roles = ['admin', 'manager'];
    claims.sub = '00000000-0000-0000-0000-000000000000';
    const forgedPayload = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`;
    const flippedSig = `${h}.${p}.${s!.slice(0, -2)}${s!.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const t of [forgedPayload, flippedSig, 'not-a-jwt', `${h}.${p}.`]) {
      const r = await verify({ authorization: `Bearer ${t}` });
      expect(r.statusCode).toBe(401);
      expect(errorOf(r).code).toBe('UNAUTHENTICATED');
    }
  });

  it('a token signed by another key: 401', async () => {
    const other = await TokenSigner.fromPem(generateSigningKeys().privateKeyPem);
    const { token } = await other.sign({ sub: 'x', sid: 'y', knd: 'admin', roles: ['admin'], name: 'mallory' });
    const r = await verify({ authorization: `Bearer ${token}` });
    expect(r.statusCode).toBe(401);
  });

  it('a revoked session: refused at once after logout, by bearer and by cookie', async () => {
    const res = await login(gw.app);
    const cookie = cookieHeader(res.headers['set-cookie']);
    const bearer = { authorization: `Bearer ${res.json().session_token}` };
    expect((await verify(bearer)).statusCode).toBe(200);
    const out = await gw.app.inject({ method: 'POST', url: '/api/identity/admin/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ success: true, message: MESSAGES.loggedOut });
    const cleared = ([] as string[]).concat(out.headers['set-cookie'] ?? []);
    expect(cleared.some((c) => c.startsWith('ch_at=;'))).toBe(true);
    for (const h of [bearer, { cookie }]) {
      const r = await verify(h);
      expect(r.statusCode).toBe(401);
      expect(errorOf(r).code).toBe('SESSION_EXPIRED');
    }
    // and the refresh cookie cannot bring it back
    const refresh = await gw.app.inject({ method: 'POST', url: '/api/identity/admin/refresh', headers: { cookie } });
    expect(refresh.statusCode).toBe(401);
  });

  it('a user-kind token cannot use the admin session route: 403', async () => {
    const { token } = await gw.kit.signer.sign({ sub: 'u1', sid: 's1', knd: 'user', roles: ['admin'], name: 'someone' });
    const r = await verify({ authorization: `Bearer ${token}` });
    expect(r.statusCode).toBe(403);
    expect(errorOf(r)).toEqual({ code: 'FORBIDDEN', message: MESSAGES.noAccessToArea });
  });
});

describe('refresh', () => {
  it('rotates the refresh cookie; replaying the old one ends the session', async () => {
    const res = await login(gw.app);
    const first = cookieHeader(res.headers['set-cookie']);
    const r1 = await gw.app.inject({ method: 'POST', url: '/api/identity/admin/refresh', headers: { cookie: first } });
    expect(r1.statusCode).toBe(200);
    const second = cookieHeader(r1.headers['set-cookie']);
    expect(second).not.toEqual(first);
    expect((await gw.app.inject({ method: 'GET', url: '/api/identity/admin/session', headers: { cookie: second } })).statusCode).toBe(200);
    // replay the first (rotated-out) refresh token
    const replay = await gw.app.inject({ method: 'POST', url: '/api/identity/admin/refresh', headers: { cookie: first } });
    expect(replay.statusCode).toBe(401);
    // the whole session is now revoked, including the newest access token
    const after = await gw.app.inject({ method: 'GET', url: '/api/identity/admin/session', headers: { cookie: second } });
    expect(after.statusCode).toBe(401);
  });

  it('without a refresh cookie: 401', async () => {
    const r = await gw.app.inject({ method: 'POST', url: '/api/identity/admin/refresh' });
    expect(r.statusCode).toBe(401);
    expect(errorOf(r).code).toBe('UNAUTHENTICATED');
  });
});

describe('gateway guards', () => {
  it('refuses cross-site state-changing requests', async () => {
    const bySite = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/admin/login',
      headers: { 'sec-fetch-site': 'cross-site' },
      payload: ADMIN,
    });
    const byOrigin = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/admin/login',
      headers: { origin: 'https://evil.example', host: 'localhost:3000' },
      payload: ADMIN,
    });
    for (const r of [bySite, byOrigin]) {
      expect(r.statusCode).toBe(403);
      expect(errorOf(r).code).toBe('CROSS_SITE_REQUEST');
    }
    const sameOrigin = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/admin/login',
      headers: { origin: 'http://localhost:3000', host: 'localhost:3000', 'sec-fetch-site': 'same-origin' },
      payload: ADMIN,
    });
    expect(sameOrigin.statusCode).toBe(200);
  });

  it('sets security headers', async () => {
    const r = await gw.app.inject({ method: 'GET', url: '/api/public/config' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['x-request-id']).toBeTruthy();
  });

  it('unknown API paths need a token first, then answer the JSON 404', async () => {
    const anon = await gw.app.inject({ method: 'GET', url: '/api/identity/nothing-here' });
    expect(anon.statusCode).toBe(401);
    const token = (await login(gw.app)).json().session_token;
    const authed = await gw.app.inject({ method: 'GET', url: '/api/identity/nothing-here', headers: { authorization: `Bearer ${token}` } });
    expect(authed.statusCode).toBe(404);
    expect(errorOf(authed).code).toBe('NOT_FOUND');
  });

  it('serves the OpenAPI document for the whole API at /api/docs', async () => {
    const r = await gw.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(r.statusCode).toBe(200);
    const doc = r.json();
    expect(doc.paths).toHaveProperty('/api/identity/admin/login');
    expect(doc.paths).toHaveProperty('/api/identity/admin/session');
    const ui = await gw.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
  });

  it('health: live and ready (database, bus, jobs)', async () => {
    expect((await gw.app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    const ready = await gw.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', checks: { database: 'ok', bus: 'ok', jobs: 'ok' } });
  });
});
