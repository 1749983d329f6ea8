import { MESSAGES } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, makePerson, startTestGateway, type TestGateway } from './helpers.js';

let gw: TestGateway;
let adminToken: string;
beforeAll(async () => {
  gw = await startTestGateway();
  adminToken = (await login(gw.app)).json().session_token;
});
afterAll(async () => {
  await gw?.close();
});

const err = (r: { json(): unknown }) => (r.json() as { error: { code: string; message: string } }).error;
const invite = (email: string, role: string, token = adminToken) =>
  gw.app.inject({ method: 'POST', url: '/api/identity/invitations', headers: bearer(token), payload: { email, role } });
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;
const accept = (payload: object) => gw.app.inject({ method: 'POST', url: '/api/identity/invitations/accept', payload });
const lookup = (token: string) =>
  gw.app.inject({ method: 'GET', url: `/api/identity/invitations/lookup?token=${encodeURIComponent(token)}` });

describe('invitations', () => {
  it('invite, look up, accept once, sign in to the staff portal; the admin is recorded as inviter', async () => {
    const r = await invite('New.Starter@Practice.co.uk', 'staff');
    expect(r.statusCode).toBe(201);
    const inv = r.json();
    expect(inv).toMatchObject({
      email: 'new.starter@practice.co.uk',
      role: 'staff',
      status: 'pending',
      invited_by_name: 'practice.admin',
      delivery: 'log',
    });
    expect(new Date(inv.expires_at).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(inv.invite_url).toMatch(/\/staff\/signup\?token=[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(inv.invite_url);

    const found = await lookup(token);
    expect(found.json()).toMatchObject({ valid: true, email: 'new.starter@practice.co.uk', role: 'staff' });

    expect((await accept({ token, password: 'abc12', confirm_password: 'abc12' })).json().error.message).toBe(MESSAGES.passwordTooShort);
    expect((await accept({ token, password: 'abc123', confirm_password: 'abc124' })).json().error.message).toBe(
      MESSAGES.passwordsDoNotMatch,
    );
    const ok = await accept({
      token,
      email: 'new.starter@practice.co.uk',
      password: 'Ledger-Quill-42',
      confirm_password: 'Ledger-Quill-42',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(MESSAGES.accountCreated);
    // a token works once
    const twice = await accept({ token, password: 'Ledger-Quill-42' });
    expect(twice.statusCode).toBe(410);
    expect(err(twice).message).toBe(MESSAGES.invalidOrExpiredInvitation);
    expect((await lookup(token)).json()).toMatchObject({ valid: false, message: MESSAGES.invalidOrExpiredInvitation });

    const li = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/auth/login',
      payload: { email: 'new.starter@practice.co.uk', password: 'Ledger-Quill-42', portal: 'staff' },
    });
    expect(li.statusCode).toBe(200);
    expect(li.json().staff_role).toBe('staff');
    const list = await gw.app.inject({ method: 'GET', url: '/api/identity/invitations', headers: bearer(adminToken) });
    expect(list.json().invitations[0]).toMatchObject({ email: 'new.starter@practice.co.uk', status: 'accepted' });
    expect(list.json().invitations[0]).not.toHaveProperty('invite_url');
    expect(list.json().smtp_configured).toBe(false);
    // the e-mail is kept in the outgoing-mail log for admins
    const mail = await gw.app.inject({ method: 'GET', url: '/api/identity/outgoing-mail', headers: bearer(adminToken) });
    expect(
      mail.json().mail.some((m: { to: string; body: string }) => m.to === 'new.starter@practice.co.uk' && m.body.includes(token)),
    ).toBe(true);
  });

  it('cancel: only pending; a cancelled link is rejected', async () => {
    const inv = (await invite('cancel.me@practice.co.uk', 'accountant')).json();
    const c = await gw.app.inject({ method: 'POST', url: `/api/identity/invitations/${inv.id}/cancel`, headers: bearer(adminToken) });
    expect(c.statusCode).toBe(200);
    expect(c.json().status).toBe('cancelled');
    const again = await gw.app.inject({ method: 'POST', url: `/api/identity/invitations/${inv.id}/cancel`, headers: bearer(adminToken) });
    expect(again.statusCode).toBe(409);
    const r = await accept({ token: tokenOf(inv.invite_url), password: 'abc123' });
    expect(r.statusCode).toBe(410);
    expect(err(r).message).toBe(MESSAGES.invalidOrExpiredInvitation);
  });

  it('an expired invitation shows as expired and is refused with the spec text', async () => {
    const inv = (await invite('late@practice.co.uk', 'staff')).json();
    await gw.kit.runtime.pool.query(`update identity.staff_invitations set expires_at = now() - interval '1 minute' where id = $1`, [
      inv.id,
    ]);
    const r = await accept({ token: tokenOf(inv.invite_url), password: 'abc123' });
    expect(r.statusCode).toBe(410);
    expect(err(r).message).toBe(MESSAGES.invitationExpired);
    expect((await lookup(tokenOf(inv.invite_url))).json().message).toBe(MESSAGES.invitationExpired);
    const list = await gw.app.inject({ method: 'GET', url: '/api/identity/invitations', headers: bearer(adminToken) });
    const row = list.json().invitations.find((i: { id: string }) => i.id === inv.id);
    expect(row).toMatchObject({ status: 'expired' });
    expect(row).not.toHaveProperty('invite_url');
    expect(
      (await gw.app.inject({ method: 'POST', url: `/api/identity/invitations/${inv.id}/cancel`, headers: bearer(adminToken) })).statusCode,
    ).toBe(409);
  });

  it('bad tokens: missing, unknown, overlong', async () => {
    expect((await gw.app.inject({ method: 'GET', url: '/api/identity/invitations/lookup' })).json().message).toBe(
      MESSAGES.noInvitationToken,
    );
    expect((await accept({ token: '', password: 'abc123' })).json().error.message).toBe(MESSAGES.noInvitationToken);
    expect((await accept({ token: 'guessed-token', password: 'abc123' })).statusCode).toBe(410);
    expect((await accept({ token: 'x'.repeat(500), password: 'abc123' })).statusCode).toBe(400);
  });

  it('an existing account joins with its own password; the role is added, the password unchanged', async () => {
    await gw.app.inject({
      method: 'POST',
      url: '/api/identity/auth/signup',
      payload: { email: 'client.turned.staff@x.co.uk', password: 'original1' },
    });
    const inv = (await invite('client.turned.staff@x.co.uk', 'staff')).json();
    const wrong = await accept({ token: tokenOf(inv.invite_url), password: 'takeover1' });
    expect(wrong.statusCode).toBe(401);
    const right = await accept({ token: tokenOf(inv.invite_url), password: 'original1' });
    expect(right.statusCode).toBe(200);
    const li = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/auth/login',
      payload: { email: 'client.turned.staff@x.co.uk', password: 'original1', portal: 'staff' },
    });
    expect(li.json().roles.sort()).toEqual(['client', 'staff']);
  });

  it('a new invitation replaces an older pending one for the same e-mail', async () => {
    const a = (await invite('twice@practice.co.uk', 'staff')).json();
    const b = (await invite('twice@practice.co.uk', 'manager')).json();
    expect((await lookup(tokenOf(a.invite_url))).json().valid).toBe(false);
    expect((await lookup(tokenOf(b.invite_url))).json()).toMatchObject({ valid: true, role: 'manager' });
  });

  it('validation: both fields required, a real role, a manager cannot invite an admin', async () => {
    for (const payload of [
      {},
      { email: '', role: 'staff' },
      { email: 'a@b.co' },
      { email: 'a@b.co', role: 'client' },
      { email: 'a@b.co', role: 'owner' },
    ]) {
      const r = await gw.app.inject({ method: 'POST', url: '/api/identity/invitations', headers: bearer(adminToken), payload });
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const mgr = await makePerson(gw, 'inviting.manager@practice.co.uk', ['manager']);
    expect((await invite('x1@practice.co.uk', 'staff', mgr.token)).statusCode).toBe(201);
    expect((await invite('x2@practice.co.uk', 'admin', mgr.token)).statusCode).toBe(403);
  });
});
