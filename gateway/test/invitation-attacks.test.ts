import { IDENTITY_ROUTES, MESSAGES } from '@countinghouse/proto';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, makePerson, startTestGateway, type Person, type TestGateway } from './helpers.js';

// Issue #21, item 3: a manager could read a pending admin invitation's link in the list and accept it
// with a password of their choosing. Each test here is an attempt at that, or at a way around the fix.

let gw: TestGateway;
let adminToken: string;
let manager: Person;
beforeAll(async () => {
  gw = await startTestGateway();
  adminToken = (await login(gw.app)).json().session_token;
  manager = await makePerson(gw, 'mallory.manager@practice.co.uk', ['manager'], 'Manager-Pass-913');
});
afterAll(async () => {
  await gw?.close();
});

const STRONG = 'Quarterly-Ledger-2026';
const err = (r: { json(): unknown }) => (r.json() as { error: { code: string; message: string } }).error;
const invite = (email: string, role: string, token = adminToken) =>
  gw.app.inject({ method: 'POST', url: IDENTITY_ROUTES.invitations, headers: bearer(token), payload: { email, role } });
const list = (token: string, query = '') =>
  gw.app.inject({ method: 'GET', url: `${IDENTITY_ROUTES.invitations}${query}`, headers: bearer(token) });
const cancel = (id: string, token: string) =>
  gw.app.inject({ method: 'POST', url: IDENTITY_ROUTES.cancelInvitation(id), headers: bearer(token) });
const resend = (id: string, token: string) =>
  gw.app.inject({ method: 'POST', url: IDENTITY_ROUTES.resendInvitation(id), headers: bearer(token) });
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;
const accept = (payload: object) => gw.app.inject({ method: 'POST', url: IDENTITY_ROUTES.acceptInvitation, payload });
const lookup = (token: string) => gw.app.inject({ method: 'GET', url: IDENTITY_ROUTES.invitationByToken(token) });
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('the invitation list never carries a link', () => {
  it("a manager's list has no link or token for any role, and no admin or manager invitation at all", async () => {
    const made = await Promise.all([
      invite('future.admin@practice.co.uk', 'admin'),
      invite('future.manager@practice.co.uk', 'manager'),
      invite('future.staff@practice.co.uk', 'staff'),
      invite('future.accountant@practice.co.uk', 'accountant', manager.token),
    ]);
    for (const r of made) expect(r.statusCode, r.body).toBe(201);
    const tokens = made.map((r) => tokenOf(r.json().invite_url));

    for (const who of [manager.token, adminToken]) {
      const r = await list(who);
      expect(r.statusCode).toBe(200);
      for (const t of tokens) expect(r.body).not.toContain(t);
      expect(r.body).not.toMatch(/signup\?token=|invite_url|invite_token/);
    }
    const roles = new Set((await list(manager.token)).json().invitations.map((i: { role: string }) => i.role));
    expect([...roles].sort()).toEqual(['accountant', 'staff']);
    const adminRoles = new Set((await list(adminToken)).json().invitations.map((i: { role: string }) => i.role));
    expect([...adminRoles].sort()).toEqual(['accountant', 'admin', 'manager', 'staff']);
  });

  it('the database keeps only a hash of the link token', async () => {
    const r = await invite('hash.only@practice.co.uk', 'staff');
    const token = tokenOf(r.json().invite_url);
    const { rows } = await gw.kit.runtime.pool.query('select * from identity.staff_invitations where id = $1', [r.json().id]);
    expect(rows[0].invite_token_hash).toBe(sha256(token));
    expect(JSON.stringify(rows[0])).not.toContain(token);
    expect(rows[0]).not.toHaveProperty('invite_token');
  });
});

describe('nobody acts on invitations above their own role', () => {
  it('a manager cannot create an admin or manager invitation (403)', async () => {
    for (const role of ['admin', 'manager']) {
      const r = await invite(`escalate.${role}@practice.co.uk`, role, manager.token);
      expect(r.statusCode, role).toBe(403);
      expect(err(r).message).toBe(MESSAGES.inviteRoleNotAllowed);
    }
    const { rows } = await gw.kit.runtime.pool.query(
      `select count(*)::int as n from identity.staff_invitations where email like 'escalate.%'`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('a manager cannot view admin or manager invitations (403)', async () => {
    expect((await list(manager.token, '?role=admin')).statusCode).toBe(403);
    expect((await list(manager.token, '?role=manager')).statusCode).toBe(403);
    expect((await list(manager.token, '?role=staff')).statusCode).toBe(200);
    expect((await list(adminToken, '?role=admin')).statusCode).toBe(200);
  });

  it('a manager cannot cancel or re-send an admin or manager invitation (403); the invitation is untouched', async () => {
    for (const role of ['admin', 'manager']) {
      const made = (await invite(`target.${role}@practice.co.uk`, role)).json();
      const c = await cancel(made.id, manager.token);
      expect(c.statusCode, `cancel ${role}`).toBe(403);
      const s = await resend(made.id, manager.token);
      expect(s.statusCode, `resend ${role}`).toBe(403);
      expect(s.body).not.toContain('signup?token=');
      // and cannot cancel it by inviting the same e-mail to a role of their own
      const replace = await invite(`target.${role}@practice.co.uk`, 'staff', manager.token);
      expect(replace.statusCode, `replace ${role}`).toBe(403);
      expect(err(replace).message).toBe(MESSAGES.inviteReplacesHigherRole);
      expect((await lookup(tokenOf(made.invite_url))).json()).toMatchObject({ valid: true, role });
    }
  });

  it('staff and accountants cannot use the invitation routes at all', async () => {
    const staff = await makePerson(gw, 'plain.staff@practice.co.uk', ['staff'], 'Staff-Pass-5521');
    expect((await invite('x@practice.co.uk', 'accountant', staff.token)).statusCode).toBe(403);
    expect((await list(staff.token)).statusCode).toBe(403);
  });

  it('re-send makes a fresh link shown once to the re-sender; the old link stops working', async () => {
    const made = (await invite('resend.me@practice.co.uk', 'staff', manager.token)).json();
    const again = await resend(made.id, manager.token);
    expect(again.statusCode).toBe(200);
    const fresh = again.json().invite_url as string;
    expect(tokenOf(fresh)).not.toBe(tokenOf(made.invite_url));
    expect((await lookup(tokenOf(made.invite_url))).json().valid).toBe(false);
    expect((await accept({ token: tokenOf(made.invite_url), password: STRONG })).statusCode).toBe(410);
    expect((await list(manager.token)).body).not.toContain(tokenOf(fresh));
    // an expired invitation can be re-sent for a new term; a cancelled one cannot
    await gw.kit.runtime.pool.query(`update identity.staff_invitations set expires_at = now() - interval '1 day' where id = $1`, [made.id]);
    const renewed = await resend(made.id, adminToken);
    expect(renewed.statusCode).toBe(200);
    expect(new Date(renewed.json().expires_at).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    expect(renewed.json().invited_by).not.toBe(manager.id);
    await cancel(made.id, adminToken);
    expect((await resend(made.id, adminToken)).statusCode).toBe(409);
  });
});

describe('accepting checks the inviter still may invite to the role', () => {
  it('an admin invitation whose inviter lost the admin role is refused', async () => {
    const admin2 = await makePerson(gw, 'second.admin@practice.co.uk', ['admin'], 'Admin-Two-Pass-77');
    const made = (await invite('invited.by.admin2@practice.co.uk', 'admin', admin2.token)).json();
    expect((await lookup(tokenOf(made.invite_url))).json().valid).toBe(true);
    const revoke = await gw.app.inject({
      method: 'DELETE',
      url: `/api/identity/roles/admin/people/${admin2.id}`,
      headers: bearer(adminToken),
    });
    expect(revoke.statusCode, revoke.body).toBe(200);
    // Issue 32: a leaver's pending invitations are cancelled with their role, not only refused at acceptance.
    expect((await lookup(tokenOf(made.invite_url))).json()).toMatchObject({ valid: false, message: MESSAGES.invalidOrExpiredInvitation });
    const r = await accept({ token: tokenOf(made.invite_url), password: STRONG, confirm_password: STRONG });
    expect(r.statusCode).toBe(410);
    expect(err(r).message).toBe(MESSAGES.invalidOrExpiredInvitation);
    const { rows } = await gw.kit.runtime.pool.query(`select 1 from identity.users where email = 'invited.by.admin2@practice.co.uk'`);
    expect(rows).toHaveLength(0);
  });

  it("a deactivated manager's staff invitation is cancelled (issue 32); an admin's new invitation works", async () => {
    const mgr2 = await makePerson(gw, 'leaving.manager@practice.co.uk', ['manager'], 'Manager-Two-Pass-8');
    const made = (await invite('invited.by.leaver@practice.co.uk', 'staff', mgr2.token)).json();
    const off = await gw.app.inject({ method: 'POST', url: IDENTITY_ROUTES.deactivateStaff(mgr2.id), headers: bearer(adminToken) });
    expect(off.statusCode, off.body).toBe(200);
    const r = await accept({ token: tokenOf(made.invite_url), password: STRONG });
    expect(r.statusCode).toBe(410);
    expect(err(r).message).toBe(MESSAGES.invalidOrExpiredInvitation);
    const { rows } = await gw.kit.runtime.pool.query(`select status from identity.staff_invitations where id = $1`, [made.id]);
    expect(rows[0].status).toBe('cancelled');
    const renewed = (await invite('invited.by.leaver@practice.co.uk', 'staff', adminToken)).json();
    expect((await accept({ token: tokenOf(renewed.invite_url), password: STRONG })).statusCode).toBe(200);
  });

  it('an invitation from an admin panel account that was deactivated is refused', async () => {
    // a second admin panel account, so the first may be deactivated without removing the last admin
    const { rows } = await gw.kit.runtime.pool.query(
      `insert into identity.admin_users (username, password_hash) select 'panel.two', password_hash from identity.admin_users limit 1 returning id`,
    );
    const panelTwo = (await login(gw.app, { username: 'panel.two', password: 'correct horse battery staple' })).json().session_token;
    const made = (await invite('invited.by.panel2@practice.co.uk', 'manager', panelTwo)).json();
    const off = await gw.app.inject({
      method: 'DELETE',
      url: `/api/identity/roles/admin-accounts/${rows[0].id}`,
      headers: bearer(adminToken),
    });
    expect(off.statusCode, off.body).toBe(200);
    const r = await accept({ token: tokenOf(made.invite_url), password: STRONG });
    expect(r.statusCode).toBe(410);
    // Issue 32: cancelled with the account, so the link is simply no longer valid.
    expect(err(r).message).toBe(MESSAGES.invalidOrExpiredInvitation);
  });

  it('a common password is refused for a new staff account, case-insensitively', async () => {
    const made = (await invite('weak.password@practice.co.uk', 'staff')).json();
    for (const password of ['password1', 'PassWord1', 'letmein', 'qwerty123']) {
      const r = await accept({ token: tokenOf(made.invite_url), password, confirm_password: password });
      expect(r.statusCode, password).toBe(400);
      expect(err(r).message).toBe(MESSAGES.commonPassword);
    }
    // the invitation was not spent by the refusals
    expect((await accept({ token: tokenOf(made.invite_url), password: STRONG, confirm_password: STRONG })).statusCode).toBe(200);
  });
});
