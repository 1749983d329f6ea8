import { MESSAGES } from '@countinghouse/proto';
import { waitFor } from '@countinghouse/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, makePerson, startTestGateway, type TestGateway } from './helpers.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
});

const err = (r: { json(): unknown }) => (r.json() as { error: { code: string; message: string } }).error;

// (client sign-up, sign-in, lock-out, refresh and logout need identity alone: services/identity/test/people-auth.test.ts)

describe('staff sign-in', () => {
  it("lets staff in with 'Welcome back!' and refuses a client or an accountant with the spec text, creating no session", async () => {
    await makePerson(gw, 'mgr@practice.co.uk', ['manager']);
    const ok = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/auth/login',
      payload: { email: 'mgr@practice.co.uk', password: 'person-password-1', portal: 'staff' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ message: MESSAGES.welcomeBack, staff_role: 'manager' });
    for (const [email, roles] of [
      ['client-only@x.co.uk', ['client']],
      ['acc@practice.co.uk', ['accountant']],
    ] as const) {
      const p = await makePerson(gw, email, [...roles]);
      const before = (await gw.kit.runtime.pool.query('select count(*)::int as n from identity.user_sessions where user_id = $1', [p.id]))
        .rows[0].n;
      const r = await gw.app.inject({
        method: 'POST',
        url: '/api/identity/auth/login',
        payload: { email, password: p.password, portal: 'staff' },
      });
      expect(r.statusCode).toBe(403);
      expect(err(r).message).toBe(MESSAGES.noStaffAccess);
      expect(r.headers['set-cookie']).toBeUndefined();
      const after = (await gw.kit.runtime.pool.query('select count(*)::int as n from identity.user_sessions where user_id = $1', [p.id]))
        .rows[0].n;
      expect(after).toBe(before);
    }
  });
});

describe('deactivation', () => {
  it('a deactivated member loses access at once, including open sessions', async () => {
    const admin = await makePerson(gw, 'boss@practice.co.uk', ['admin']);
    const member = await makePerson(gw, 'leaver@practice.co.uk', ['staff']);
    expect((await gw.app.inject({ method: 'GET', url: '/api/identity/auth/me', headers: bearer(member.token) })).statusCode).toBe(200);
    const list = await gw.app.inject({ method: 'GET', url: '/api/identity/staff', headers: bearer(admin.token) });
    expect(list.json().staff.map((s: { email: string }) => s.email)).toContain('leaver@practice.co.uk');
    const d = await gw.app.inject({ method: 'POST', url: `/api/identity/staff/${member.id}/deactivate`, headers: bearer(admin.token) });
    expect(d.statusCode).toBe(200);
    expect(d.json().message).toBe(MESSAGES.staffDeactivated);
    // the open session: its token and its refresh cookie both stop working
    await waitFor(
      async () => (await gw.app.inject({ method: 'GET', url: '/api/identity/auth/me', headers: bearer(member.token) })).statusCode === 401,
      'token refused',
      5000,
      20,
    );
    expect(
      (await gw.app.inject({ method: 'POST', url: '/api/identity/auth/refresh', headers: { cookie: member.cookie } })).statusCode,
    ).toBe(401);
    const list2 = await gw.app.inject({ method: 'GET', url: '/api/identity/staff', headers: bearer(admin.token) });
    expect(list2.json().staff.map((s: { email: string }) => s.email)).not.toContain('leaver@practice.co.uk');
    // and the staff portal now refuses them
    const again = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/auth/login',
      payload: { email: member.email, password: member.password, portal: 'staff' },
    });
    expect(again.statusCode).toBe(403);
  });

  it('a manager cannot deactivate an administrator, nor anyone themselves', async () => {
    const mgr = await makePerson(gw, 'mgr2@practice.co.uk', ['manager']);
    const adm = await makePerson(gw, 'adm2@practice.co.uk', ['admin']);
    expect(
      (await gw.app.inject({ method: 'POST', url: `/api/identity/staff/${adm.id}/deactivate`, headers: bearer(mgr.token) })).statusCode,
    ).toBe(403);
    expect(
      (await gw.app.inject({ method: 'POST', url: `/api/identity/staff/${mgr.id}/deactivate`, headers: bearer(mgr.token) })).statusCode,
    ).toBe(409);
  });

  it('a manager cannot deactivate another manager (403, issue 32); an administrator can; a manager still deactivates staff', async () => {
    const mgr = await makePerson(gw, 'mgr3@practice.co.uk', ['manager']);
    const other = await makePerson(gw, 'mgr4@practice.co.uk', ['manager']);
    const both = await makePerson(gw, 'mgr5@practice.co.uk', ['staff']);
    await gw.kit.runtime.pool.query(`insert into identity.user_roles (user_id, role) values ($1, 'manager')`, [both.id]);
    const junior = await makePerson(gw, 'junior@practice.co.uk', ['staff']);
    for (const target of [other, both]) {
      const r = await gw.app.inject({ method: 'POST', url: `/api/identity/staff/${target.id}/deactivate`, headers: bearer(mgr.token) });
      expect(r.statusCode, r.body).toBe(403);
      expect(r.json().error).toEqual({ code: 'FORBIDDEN', message: 'Only an administrator can deactivate a manager.' });
    }
    // Nor demote one (roles are the administrators' alone).
    const demote = await gw.app.inject({
      method: 'DELETE',
      url: `/api/identity/roles/manager/people/${other.id}`,
      headers: bearer(mgr.token),
    });
    expect(demote.statusCode).toBe(403);
    // Nothing happened to them.
    expect((await gw.app.inject({ method: 'GET', url: '/api/identity/auth/me', headers: bearer(other.token) })).statusCode).toBe(200);
    const ok = await gw.app.inject({ method: 'POST', url: `/api/identity/staff/${junior.id}/deactivate`, headers: bearer(mgr.token) });
    expect(ok.statusCode, ok.body).toBe(200);
    const admin = (await login(gw.app)).json().session_token as string;
    expect(
      (await gw.app.inject({ method: 'POST', url: `/api/identity/staff/${other.id}/deactivate`, headers: bearer(admin) })).statusCode,
    ).toBe(200);
  });
});

describe('admin session works for staff management too', () => {
  it('the admin panel session can list staff and invitations', async () => {
    const a = await login(gw.app);
    const token = a.json().session_token;
    expect((await gw.app.inject({ method: 'GET', url: '/api/identity/staff', headers: bearer(token) })).statusCode).toBe(200);
    expect((await gw.app.inject({ method: 'GET', url: '/api/identity/invitations', headers: bearer(token) })).statusCode).toBe(200);
  });
});
