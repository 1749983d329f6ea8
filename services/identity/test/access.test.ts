import type { Role } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startIdentity, tokenFor, type IdentityHarness } from './harness.js';

// Who may call identity's back-office lists (proto's permissions table), with tokens minted by the kit's
// signer: every role allowed and denied, an admin panel account, and no token at all.
let h: IdentityHarness;
beforeAll(async () => {
  h = await startIdentity();
});
afterAll(async () => {
  await h?.close();
});

const PEOPLE_ROLES: Role[] = ['client', 'accountant', 'staff', 'mlro', 'manager', 'admin'];

/** The routes and the roles allowed on each (users.view and roles: admin; staff.manage: admin and manager). */
const ROUTES: Array<{ url: string; allowed: Role[] }> = [
  { url: '/api/identity/users', allowed: ['admin'] },
  { url: '/api/identity/outgoing-mail', allowed: ['admin'] },
  { url: '/api/identity/roles', allowed: ['admin'] },
  { url: '/api/identity/staff', allowed: ['admin', 'manager'] },
  { url: '/api/identity/invitations', allowed: ['admin', 'manager'] },
];

describe.each(ROUTES)('GET $url', ({ url, allowed }) => {
  it.each(PEOPLE_ROLES)('a person holding %s', async (role) => {
    const r = await h.app.inject({ method: 'GET', url, headers: bearer(await tokenFor(h, { roles: [role] })) });
    expect(r.statusCode).toBe(allowed.includes(role) ? 200 : 403);
    if (!allowed.includes(role)) expect(r.json().error.code).toBe('FORBIDDEN');
  });

  it('an admin panel account', async () => {
    const r = await h.app.inject({ method: 'GET', url, headers: bearer(await tokenFor(h, { roles: ['admin'], kind: 'admin' })) });
    expect(r.statusCode).toBe(200);
  });

  it('nobody signed in, or a token signed by another key', async () => {
    expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const forged = await tokenFor(h, { roles: ['admin'] });
    const tampered = forged.slice(0, -4) + (forged.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await h.app.inject({ method: 'GET', url, headers: bearer(tampered) })).statusCode).toBe(401);
  });
});

describe('the user list through identity alone', () => {
  it('lists a person who signed up, with the counts', async () => {
    const su = await h.app.inject({
      method: 'POST',
      url: '/api/identity/auth/signup',
      payload: { email: 'listed@x.co.uk', password: 'olive-secret-1', first_name: 'Lis', last_name: 'Ted', company_name: 'Listed Ltd' },
    });
    expect(su.statusCode).toBe(201);
    const r = await h.app.inject({
      method: 'GET',
      url: '/api/identity/users?search=listed',
      headers: bearer(await tokenFor(h, { roles: ['admin'] })),
    });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      total: 1,
      users: [{ name: 'Lis Ted', email: 'listed@x.co.uk', company_name: 'Listed Ltd', role: 'client', status: 'active' }],
    });
    expect(r.json().stats.total_users).toBeGreaterThanOrEqual(1);
  });
});
