import { MESSAGES } from '@countinghouse/proto';
import { waitFor } from '@countinghouse/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, cookieHeader, login, makePerson, startTestGateway, type TestGateway } from './helpers.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
});

const err = (r: { json(): unknown }) => (r.json() as { error: { code: string; message: string } }).error;

describe('client sign-up and sign-in', () => {
  it('creates an account with the spec message, a client profile and role', async () => {
    const r = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/auth/signup',
      payload: { email: 'Owner@Bakery.co.uk', password: 'secret1', first_name: 'Olive', company_name: 'Olive Bakery Ltd' },
    });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toEqual({ success: true, message: MESSAGES.accountCreated });
    const li = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/auth/login',
      payload: { email: 'owner@bakery.co.uk', password: 'secret1' },
    });
    expect(li.statusCode).toBe(200);
    expect(li.json()).toMatchObject({
      success: true,
      message: MESSAGES.loginSuccessful,
      roles: ['client'],
      staff_role: null,
      user: { email: 'owner@bakery.co.uk', role: 'client', company_name: 'Olive Bakery Ltd' },
    });
    const me = await gw.app.inject({
      method: 'GET',
      url: '/api/identity/auth/me',
      headers: { cookie: cookieHeader(li.headers['set-cookie']) },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.first_name).toBe('Olive');
  });

  it('refuses a duplicate e-mail (any case) with 409 and writes nothing', async () => {
    await gw.app.inject({ method: 'POST', url: '/api/identity/auth/signup', payload: { email: 'dup@x.co.uk', password: 'secret1' } });
    const again = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/auth/signup',
      payload: { email: 'DUP@x.co.uk', password: 'secret2' },
    });
    expect(again.statusCode).toBe(409);
    const { rows } = await gw.kit.runtime.pool.query(`select count(*)::int as n from identity.users where lower(email) = 'dup@x.co.uk'`);
    expect(rows[0].n).toBe(1);
  });

  it('bad sign-up input: short password, bad e-mail, wrong types, extra fields', async () => {
    const cases = [
      [{ email: 'a@b.co', password: '12345' }, MESSAGES.passwordTooShort],
      [{ email: 'not-an-email', password: 'secret1' }, null],
      [{ email: 42, password: 'secret1' }, null],
      [{ email: 'a@b.co', password: 'secret1', role: 'admin' }, null],
      [{ email: 'x'.repeat(260) + '@b.co', password: 'secret1' }, null],
    ] as const;
    for (const [payload, message] of cases) {
      const r = await gw.app.inject({ method: 'POST', url: '/api/identity/auth/signup', payload: payload as object });
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      if (message) expect(err(r).message).toBe(message);
    }
    const { rows } = await gw.kit.runtime.pool.query(
      `select count(*)::int as n from identity.users where email like 'a@b.co%' or email = 'not-an-email'`,
    );
    expect(rows[0].n).toBe(0);
  });

  it("wrong credentials: 'Invalid email or password', the same for an unknown e-mail", async () => {
    await gw.app.inject({ method: 'POST', url: '/api/identity/auth/signup', payload: { email: 'known@x.co.uk', password: 'secret1' } });
    for (const email of ['known@x.co.uk', 'unknown@x.co.uk']) {
      const r = await gw.app.inject({ method: 'POST', url: '/api/identity/auth/login', payload: { email, password: 'wrong-one' } });
      expect(r.statusCode).toBe(401);
      expect(err(r)).toEqual({ code: 'INVALID_CREDENTIALS', message: MESSAGES.invalidEmailOrPassword });
    }
  });

  it('locks an e-mail after five failures, known or not, without saying which exists', async () => {
    await gw.app.inject({ method: 'POST', url: '/api/identity/auth/signup', payload: { email: 'lock@x.co.uk', password: 'secret1' } });
    for (const email of ['lock@x.co.uk', 'ghost@x.co.uk']) {
      const codes: number[] = [];
      for (let i = 0; i < 6; i++)
        codes.push(
          (await gw.app.inject({ method: 'POST', url: '/api/identity/auth/login', payload: { email, password: 'bad' } })).statusCode,
        );
      expect(codes).toEqual([401, 401, 401, 401, 429, 429]);
    }
    // even the right password is refused while locked
    const r = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/auth/login',
      payload: { email: 'lock@x.co.uk', password: 'secret1' },
    });
    expect(r.statusCode).toBe(429);
  });

  it('refresh rotates and re-reads roles; logout revokes', async () => {
    const p = await makePerson(gw, 'rot@x.co.uk', ['client']);
    const r1 = await gw.app.inject({ method: 'POST', url: '/api/identity/auth/refresh', headers: { cookie: p.cookie } });
    expect(r1.statusCode).toBe(200);
    expect(r1.json().roles).toEqual(['client']);
    const c2 = cookieHeader(r1.headers['set-cookie']);
    const replay = await gw.app.inject({ method: 'POST', url: '/api/identity/auth/refresh', headers: { cookie: p.cookie } });
    expect(replay.statusCode).toBe(401);
    expect(err(replay).message).toBe(MESSAGES.userSessionExpired);
    // reuse ended the session for the rotated cookie too
    expect((await gw.app.inject({ method: 'GET', url: '/api/identity/auth/me', headers: { cookie: c2 } })).statusCode).toBe(401);
  });
});

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
});

describe('admin session works for staff management too', () => {
  it('the admin panel session can list staff and invitations', async () => {
    const a = await login(gw.app);
    const token = a.json().session_token;
    expect((await gw.app.inject({ method: 'GET', url: '/api/identity/staff', headers: bearer(token) })).statusCode).toBe(200);
    expect((await gw.app.inject({ method: 'GET', url: '/api/identity/invitations', headers: bearer(token) })).statusCode).toBe(200);
  });
});
