import { ensureInitialAdmin } from '@countinghouse/identity';
import { createTestKit, waitFor } from '@countinghouse/kit/testing';
import type { StillReachable } from '@countinghouse/proto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeAllInOne } from '../../../gateway/src/compose.js';
import { ADMIN, bearer, login, makePerson, type Person, type TestGateway } from '../../../gateway/test/helpers.js';

/**
 * Issue 32, a leaver loses everything at once (all-in-one: the in-process bus). Deactivating a member of
 * staff or revoking the role that gave them access ends their sessions and refresh tokens, their
 * calendar feed (404 in the very next request), the invitations they sent, their reset links; the
 * "still reach" view then lists nothing. tests/distributed/leavers-kafka.test.ts does the same through Kafka.
 */
let gw: TestGateway;
let admin = '';

const inject = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  gw.app.inject({ method, url, headers: bearer(token), payload });

async function makeFeed(p: Person): Promise<string> {
  const r = await inject(p.token, 'POST', '/api/deadlines/calendar/reset');
  expect(r.statusCode, r.body).toBe(200);
  const path = new URL(r.json().url as string).pathname;
  expect((await gw.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
  return path;
}

async function reach(userId: string): Promise<StillReachable> {
  const r = await inject(admin, 'GET', `/api/identity/staff/${userId}/access`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as StillReachable;
}

beforeAll(async () => {
  const kit = await createTestKit();
  const app = await composeAllInOne({
    runtime: kit.runtime,
    signer: kit.signer,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    frontendDir: null,
    signInMax: 1000,
    publicConfig: () => ({ demoMode: true, maintenance: false, practice: { name: 'Test Practice', phone: '0100', email: 'a@b.c' } }),
  });
  await ensureInitialAdmin(kit.runtime.db, ADMIN);
  gw = { kit, app, close: async () => (await app.close(), await kit.close()) };
  admin = (await login(app)).json().session_token;
}, 60_000);

afterAll(async () => {
  await gw?.close();
});

describe('a leaver loses everything at once', () => {
  it('a deactivated accountant: the feed answers 404 at once, the refresh token is refused, the view is empty', async () => {
    const acc = await makePerson(gw, 'leaver.accountant@x.co.uk', ['accountant']);
    const feed = await makeFeed(acc);
    await waitFor(async () => (await reach(acc.id)).calendar_feeds.length === 1, 'the feed listed');
    const before = await reach(acc.id);
    expect(before.roles.map((r) => r.role)).toEqual(['accountant']);
    expect(before.sessions).toHaveLength(1);
    expect(before.nothing_left).toBe(false);

    const d = await inject(admin, 'POST', `/api/identity/staff/${acc.id}/deactivate`);
    expect(d.statusCode, d.body).toBe(200);
    // The very next request: no waiting for a consumer.
    const gone = await gw.app.inject({ method: 'GET', url: feed });
    expect(gone.statusCode, gone.body).toBe(404);
    expect(gone.json().error.code).toBe('NOT_FOUND');
    // The refresh cookie is dead and the access token is refused.
    expect((await gw.app.inject({ method: 'POST', url: '/api/identity/auth/refresh', headers: { cookie: acc.cookie } })).statusCode).toBe(
      401,
    );
    expect((await inject(acc.token, 'GET', '/api/deadlines/calendar')).statusCode).toBe(401);
    // The consumer removes the feed for good, and the view then lists nothing at all.
    await waitFor(
      async () =>
        (await gw.kit.runtime.pool.query(`select 1 from deadlines.calendar_tokens where principal_id = $1`, [acc.id])).rowCount === 0,
      'feed row deleted',
    );
    await waitFor(async () => (await reach(acc.id)).nothing_left, 'nothing left');
    expect(await reach(acc.id)).toEqual({
      user_id: acc.id,
      roles: [],
      sessions: [],
      invitations_sent: [],
      password_reset_links: [],
      calendar_feeds: [],
      nothing_left: true,
    });
    expect((await gw.app.inject({ method: 'GET', url: feed })).statusCode).toBe(404);
  });

  it('a deactivated manager: the invitations they sent and their reset link die with them', async () => {
    const mgr = await makePerson(gw, 'leaver.manager@x.co.uk', ['manager']);
    const inv = await inject(mgr.token, 'POST', '/api/identity/invitations', { email: 'new.hire@x.co.uk', role: 'staff' });
    expect(inv.statusCode, inv.body).toBe(201);
    const link = new URL(inv.json().invite_url as string);
    const token = link.searchParams.get('token') ?? link.pathname.split('/').pop()!;
    const fp = await gw.app.inject({ method: 'POST', url: '/api/identity/auth/forgot-password', payload: { email: mgr.email } });
    expect(fp.statusCode, fp.body).toBe(200);
    const feed = await makeFeed(mgr);
    const before = await reach(mgr.id);
    expect(before.invitations_sent.map((i) => i.email)).toEqual(['new.hire@x.co.uk']);
    expect(before.password_reset_links).toHaveLength(1);

    expect((await inject(admin, 'POST', `/api/identity/staff/${mgr.id}/deactivate`)).statusCode).toBe(200);
    expect((await gw.app.inject({ method: 'GET', url: feed })).statusCode).toBe(404);
    const status = await gw.kit.runtime.pool.query(`select status from identity.staff_invitations where id = $1`, [inv.json().id]);
    expect(status.rows[0].status).toBe('cancelled');
    const lookup = await gw.app.inject({ method: 'GET', url: `/api/identity/invitations/lookup?token=${encodeURIComponent(token)}` });
    expect(lookup.json().valid).toBe(false);
    await waitFor(async () => (await reach(mgr.id)).nothing_left, 'nothing left');
  });

  it('revoking the role that gave access ends the feed as well', async () => {
    const acc = await makePerson(gw, 'revoked.accountant@x.co.uk', ['accountant']);
    const feed = await makeFeed(acc);
    const r = await inject(admin, 'DELETE', `/api/identity/roles/accountant/people/${acc.id}`);
    expect(r.statusCode, r.body).toBe(200);
    expect((await gw.app.inject({ method: 'GET', url: feed })).statusCode).toBe(404);
    await waitFor(async () => (await reach(acc.id)).nothing_left, 'nothing left');
  });

  it('the view is for those who manage staff only; an unknown person is 404', async () => {
    const acc = await makePerson(gw, 'viewer.accountant@x.co.uk', ['accountant']);
    const staff = await makePerson(gw, 'viewer.staff@x.co.uk', ['staff']);
    const mgr = await makePerson(gw, 'viewer.manager@x.co.uk', ['manager']);
    expect((await inject(acc.token, 'GET', `/api/identity/staff/${staff.id}/access`)).statusCode).toBe(403);
    expect((await inject(staff.token, 'GET', `/api/identity/staff/${acc.id}/access`)).statusCode).toBe(403);
    expect((await inject(mgr.token, 'GET', `/api/identity/staff/${acc.id}/access`)).statusCode).toBe(200);
    expect((await gw.app.inject({ method: 'GET', url: `/api/identity/staff/${acc.id}/access` })).statusCode).toBe(401);
    expect((await inject(admin, 'GET', `/api/identity/staff/00000000-0000-4000-8000-000000000000/access`)).statusCode).toBe(404);
  });
});
