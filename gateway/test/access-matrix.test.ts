import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, makePerson, startTestGateway, type TestGateway } from './helpers.js';

/**
 * Every identity endpoint, called as each kind of caller: anonymous, client, accountant, staff,
 * manager, admin (a person) and the admin panel's session. Each cell is allowed (2xx or a 4xx that is
 * about the input) or denied (401/403).
 */
let gw: TestGateway;
const tokens: Record<string, string | null> = {};
let someUserId = '';
let someInvitationId = '';

beforeAll(async () => {
  gw = await startTestGateway();
  tokens.anonymous = null;
  tokens.client = (await makePerson(gw, 'm.client@x.co.uk', ['client'])).token;
  tokens.accountant = (await makePerson(gw, 'm.acc@x.co.uk', ['accountant'])).token;
  tokens.staff = (await makePerson(gw, 'm.staff@x.co.uk', ['staff'])).token;
  tokens.manager = (await makePerson(gw, 'm.manager@x.co.uk', ['manager'])).token;
  tokens.admin = (await makePerson(gw, 'm.admin@x.co.uk', ['admin'])).token;
  tokens.adminSession = (await login(gw.app)).json().session_token;
  someUserId = (await makePerson(gw, 'm.target@x.co.uk', ['staff'])).id;
  const inv = await gw.app.inject({
    method: 'POST',
    url: '/api/identity/invitations',
    headers: bearer(tokens.adminSession!),
    payload: { email: 'm.inv@x.co.uk', role: 'staff' },
  });
  someInvitationId = inv.json().id;
});
afterAll(async () => {
  await gw?.close();
});

type Caller = 'anonymous' | 'client' | 'accountant' | 'staff' | 'manager' | 'admin' | 'adminSession';
const ALL: Caller[] = ['anonymous', 'client', 'accountant', 'staff', 'manager', 'admin', 'adminSession'];
const PEOPLE: Caller[] = ['client', 'accountant', 'staff', 'manager', 'admin'];
const MANAGERS: Caller[] = ['manager', 'admin', 'adminSession'];
const ADMINS: Caller[] = ['admin', 'adminSession'];

const endpoints: Array<{ name: string; method: 'GET' | 'POST'; url: () => string; body?: () => object; allowed: Caller[] }> = [
  { name: 'GET /auth/me', method: 'GET', url: () => '/api/identity/auth/me', allowed: PEOPLE },
  { name: 'GET /admin/session', method: 'GET', url: () => '/api/identity/admin/session', allowed: ['adminSession'] },
  { name: 'GET /invitations', method: 'GET', url: () => '/api/identity/invitations', allowed: MANAGERS },
  {
    name: 'POST /invitations',
    method: 'POST',
    url: () => '/api/identity/invitations',
    body: () => ({ email: `matrix-${Math.random()}@x.co.uk`, role: 'staff' }),
    allowed: MANAGERS,
  },
  {
    name: 'POST /invitations/:id/cancel',
    method: 'POST',
    url: () => `/api/identity/invitations/${someInvitationId}/cancel`,
    allowed: MANAGERS,
  },
  {
    name: 'POST /invitations/:id/resend',
    method: 'POST',
    url: () => `/api/identity/invitations/${someInvitationId}/resend`,
    allowed: MANAGERS,
  },
  { name: 'GET /staff', method: 'GET', url: () => '/api/identity/staff', allowed: MANAGERS },
  { name: 'POST /staff/:id/deactivate', method: 'POST', url: () => `/api/identity/staff/${someUserId}/deactivate`, allowed: MANAGERS },
  { name: 'GET /users', method: 'GET', url: () => '/api/identity/users', allowed: ADMINS },
  { name: 'GET /outgoing-mail', method: 'GET', url: () => '/api/identity/outgoing-mail', allowed: ADMINS },
  { name: 'GET /security/lockouts', method: 'GET', url: () => '/api/identity/security/lockouts', allowed: ADMINS },
  // public by design
  { name: 'GET /invitations/lookup', method: 'GET', url: () => '/api/identity/invitations/lookup?token=nope', allowed: ALL },
];

describe('identity access matrix', () => {
  for (const ep of endpoints) {
    for (const caller of ALL) {
      const allowed = ep.allowed.includes(caller);
      it(`${ep.name} as ${caller}: ${allowed ? 'allowed' : 'denied'}`, async () => {
        const t = tokens[caller];
        const r = await gw.app.inject({ method: ep.method, url: ep.url(), headers: t ? bearer(t) : {}, payload: ep.body?.() });
        if (allowed) expect([200, 201, 404, 409], r.body).toContain(r.statusCode);
        else expect(caller === 'anonymous' ? [401] : [401, 403], r.body).toContain(r.statusCode);
      });
    }
  }
});

describe('one person can never read or change another', () => {
  it('/auth/me answers only the caller, whatever is asked', async () => {
    const a = await makePerson(gw, 'alice@x.co.uk');
    const b = await makePerson(gw, 'bob@x.co.uk');
    const meA = await gw.app.inject({ method: 'GET', url: `/api/identity/auth/me?user_id=${b.id}`, headers: bearer(a.token) });
    expect(meA.json().user.email).toBe('alice@x.co.uk');
    // there is no endpoint taking another person's id for a client; staff endpoints refuse clients
    expect(
      (await gw.app.inject({ method: 'POST', url: `/api/identity/staff/${b.id}/deactivate`, headers: bearer(a.token) })).statusCode,
    ).toBe(403);
    expect((await gw.app.inject({ method: 'GET', url: '/api/identity/users', headers: bearer(a.token) })).statusCode).toBe(403);
  });
});
