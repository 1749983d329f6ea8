import { waitFor } from '@countinghouse/kit/testing';
import { ADMIN_AUTH_ROUTES, IDENTITY_ROUTES, MESSAGES } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, cookieHeader, login, makePerson, startTestGateway, type TestGateway } from './helpers.js';

// Issue #21, item 6: forgot / reset / change password, each attacked the way a thief would.

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
});

const err = (r: { json(): unknown }) => (r.json() as { error: { code: string; message: string } }).error;
const forgot = (email: string) => gw.app.inject({ method: 'POST', url: IDENTITY_ROUTES.forgotPassword, payload: { email } });
const reset = (token: string, password: string) =>
  gw.app.inject({ method: 'POST', url: IDENTITY_ROUTES.resetPassword, payload: { token, password, confirm_password: password } });
const signIn = (email: string, password: string) =>
  gw.app.inject({ method: 'POST', url: IDENTITY_ROUTES.login, payload: { email, password } });
const me = (token: string) => gw.app.inject({ method: 'GET', url: IDENTITY_ROUTES.me, headers: bearer(token) });
const refresh = (cookie: string) => gw.app.inject({ method: 'POST', url: IDENTITY_ROUTES.refresh, headers: { cookie } });
const change = (token: string, body: object) =>
  gw.app.inject({ method: 'POST', url: IDENTITY_ROUTES.changePassword, headers: bearer(token), payload: body });

async function mailsTo(email: string): Promise<string[]> {
  const { rows } = await gw.kit.runtime.pool.query(`select body from identity.outgoing_mail where "to" = $1 order by created_at`, [email]);
  return rows.map((r) => r.body as string);
}

/** The reset link's token from the newest mail to `email` (the mail goes out just after the answer). */
async function resetTokenFor(email: string, count = 1): Promise<string> {
  await waitFor(async () => (await mailsTo(email)).length >= count, `reset mail ${count} to ${email}`, 5000, 20);
  const body = (await mailsTo(email)).at(-1)!;
  const m = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(body);
  if (!m) throw new Error(`no reset link in: ${body}`);
  return m[1]!;
}

describe('forgot password', () => {
  it('answers an unknown e-mail exactly as a known one, and mails only the known one', async () => {
    const person = await makePerson(gw, 'known.client@example.co.uk');
    const known = await forgot(person.email);
    const unknown = await forgot('nobody.here@example.co.uk');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(known.json()).toEqual({ success: true, message: MESSAGES.passwordResetRequested });
    await resetTokenFor(person.email);
    expect(await mailsTo('nobody.here@example.co.uk')).toEqual([]);
  });

  it('a reset link works once; the old password stops working and every session of the account ends', async () => {
    const person = await makePerson(gw, 'single.use@example.co.uk', ['client'], 'Old-Password-11');
    const second = await signIn(person.email, person.password); // another device
    const secondCookie = cookieHeader(second.headers['set-cookie']);
    expect((await me(person.token)).statusCode).toBe(200);

    await forgot(person.email);
    const token = await resetTokenFor(person.email);
    expect((await gw.app.inject({ method: 'GET', url: IDENTITY_ROUTES.resetLookup(token) })).json()).toMatchObject({
      valid: true,
      is_staff: false,
    });
    const done = await reset(token, 'New-Password-22');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().message).toBe(MESSAGES.passwordResetDone);

    const again = await reset(token, 'Third-Password-33');
    expect(again.statusCode).toBe(410);
    expect(err(again).message).toBe(MESSAGES.passwordResetInvalid);
    expect((await signIn(person.email, person.password)).statusCode).toBe(401);
    expect((await signIn(person.email, 'New-Password-22')).statusCode).toBe(200);
    // both earlier sessions: the access token is refused and the refresh cookie no longer works
    await waitFor(async () => (await me(person.token)).statusCode === 401, 'old access token refused', 5000, 20);
    expect((await me(second.json().access_token)).statusCode).toBe(401);
    expect((await refresh(secondCookie)).statusCode).toBe(401);
  });

  it('a link expires after 30 minutes', async () => {
    const person = await makePerson(gw, 'slow.reader@example.co.uk');
    await forgot(person.email);
    const token = await resetTokenFor(person.email);
    const { rows } = await gw.kit.runtime.pool.query(
      `select round(extract(epoch from r.expires_at - r.created_at))::int as seconds from identity.password_resets r
       join identity.users u on u.id = r.user_id where u.email = $1`,
      [person.email],
    );
    expect(rows[0].seconds).toBe(30 * 60);
    // 31 minutes later
    await gw.kit.runtime.pool.query(
      `update identity.password_resets set created_at = created_at - interval '31 minutes', expires_at = expires_at - interval '31 minutes'
       where user_id = $1`,
      [person.id],
    );
    expect((await gw.app.inject({ method: 'GET', url: IDENTITY_ROUTES.resetLookup(token) })).json()).toMatchObject({
      valid: false,
      message: MESSAGES.passwordResetInvalid,
    });
    expect((await reset(token, 'Too-Late-Password-1')).statusCode).toBe(410);
    expect((await signIn(person.email, person.password)).statusCode).toBe(200);
  });

  it('a newer link replaces an older one; guessed and overlong tokens are refused', async () => {
    const person = await makePerson(gw, 'asks.twice@example.co.uk');
    await forgot(person.email);
    const first = await resetTokenFor(person.email, 1);
    await forgot(person.email);
    const second = await resetTokenFor(person.email, 2);
    expect((await reset(first, 'Replaced-Link-1')).statusCode).toBe(410);
    expect((await reset(second, 'Current-Link-2')).statusCode).toBe(200);
    expect((await reset('guessed', 'Whatever-Pass-1')).statusCode).toBe(410);
    expect((await reset('x'.repeat(500), 'Whatever-Pass-1')).statusCode).toBe(400);
  });

  it('at most three mails per account per quarter-hour (no mail-bombing), with the same neutral answer', async () => {
    const person = await makePerson(gw, 'bombed@example.co.uk');
    for (let i = 0; i < 5; i++) expect((await forgot(person.email)).json().message).toBe(MESSAGES.passwordResetRequested);
    await resetTokenFor(person.email, 3);
    await new Promise((r) => setTimeout(r, 200));
    expect(await mailsTo(person.email)).toHaveLength(3);
  });

  it('nobody may reset to a common password (one rule for everyone, issue 32); the spec minimum keeps its message', async () => {
    const staff = await makePerson(gw, 'staff.resetter@practice.co.uk', ['staff'], 'Staff-Reset-Pass-1');
    await forgot(staff.email);
    const token = await resetTokenFor(staff.email);
    expect((await gw.app.inject({ method: 'GET', url: IDENTITY_ROUTES.resetLookup(token) })).json().is_staff).toBe(true);
    const weak = await reset(token, 'Sunshine');
    expect(weak.statusCode).toBe(400);
    expect(err(weak).message).toBe(MESSAGES.commonPassword);
    expect((await reset(token, 'Staff-Strong-Pass-2')).statusCode).toBe(200);

    const client = await makePerson(gw, 'client.resetter@example.co.uk');
    await forgot(client.email);
    const clientToken = await resetTokenFor(client.email);
    const short = await reset(clientToken, 'abc12');
    expect(err(short).message).toBe(MESSAGES.passwordTooShort);
    const clientWeak = await reset(clientToken, 'sunshine');
    expect(clientWeak.statusCode).toBe(400);
    expect(err(clientWeak).message).toBe(MESSAGES.commonPassword);
    expect((await reset(clientToken, 'Client-Strong-Pass-3')).statusCode).toBe(200);
  });

  it("a client choosing 'password' is refused with a clear message: at sign-up, on change and on reset (issue 32)", async () => {
    const signup = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/auth/signup',
      payload: { email: 'weak.signup@example.co.uk', password: 'password', first_name: 'Weak' },
    });
    expect(signup.statusCode).toBe(400);
    expect(err(signup)).toEqual({ code: 'VALIDATION_FAILED', message: MESSAGES.commonPassword });
    const tooShort = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/auth/signup',
      payload: { email: 'short.signup@example.co.uk', password: 'abc12', first_name: 'Short' },
    });
    expect(err(tooShort).message).toBe(MESSAGES.passwordTooShort);
    const client = await makePerson(gw, 'weak.changer@example.co.uk', ['client'], 'Weak-Changer-Old-1');
    const change = await gw.app.inject({
      method: 'POST',
      url: IDENTITY_ROUTES.changePassword,
      headers: bearer(client.token),
      payload: { current_password: 'Weak-Changer-Old-1', new_password: 'PASSWORD' },
    });
    expect(change.statusCode).toBe(400);
    expect(err(change).message).toBe(MESSAGES.commonPassword);
  });

  it('when sent by SMTP-less log the link is there for admins; the stored row holds only a hash', async () => {
    const person = await makePerson(gw, 'hash.check@example.co.uk');
    await forgot(person.email);
    const token = await resetTokenFor(person.email);
    const { rows } = await gw.kit.runtime.pool.query(`select * from identity.password_resets where user_id = $1`, [person.id]);
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});

describe('change password', () => {
  it('anonymous callers are refused; each kind of session has its own route', async () => {
    const body = { current_password: 'whatever-1', new_password: 'Whatever-New-2' };
    for (const url of [IDENTITY_ROUTES.changePassword, ADMIN_AUTH_ROUTES.changePassword])
      expect((await gw.app.inject({ method: 'POST', url, payload: body })).statusCode, url).toBe(401);
    const adminSession = (await login(gw.app)).json().session_token as string;
    expect(
      (await gw.app.inject({ method: 'POST', url: IDENTITY_ROUTES.changePassword, headers: bearer(adminSession), payload: body }))
        .statusCode,
    ).toBe(403);
  });

  it('needs the current password; ends every other session; this browser goes on', async () => {
    const person = await makePerson(gw, 'changer@example.co.uk', ['client'], 'Changer-Old-1');
    const other = await signIn(person.email, person.password);
    const otherCookie = cookieHeader(other.headers['set-cookie']);

    const wrong = await change(person.token, { current_password: 'not-it-at-all', new_password: 'Changer-New-2' });
    expect(wrong.statusCode).toBe(401);
    expect(err(wrong)).toEqual({ code: 'INVALID_CREDENTIALS', message: MESSAGES.currentPasswordWrong });
    expect((await me(other.json().access_token)).statusCode).toBe(200);
    const same = await change(person.token, { current_password: person.password, new_password: person.password });
    expect(err(same).message).toBe(MESSAGES.newPasswordSameAsCurrent);
    const mismatch = await change(person.token, {
      current_password: person.password,
      new_password: 'Changer-New-2',
      confirm_password: 'x',
    });
    expect(err(mismatch).message).toBe(MESSAGES.passwordsDoNotMatch);

    const ok = await gw.app.inject({
      method: 'POST',
      url: IDENTITY_ROUTES.changePassword,
      headers: { cookie: person.cookie },
      payload: { current_password: person.password, new_password: 'Changer-New-2', confirm_password: 'Changer-New-2' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe(MESSAGES.passwordChanged);
    // the other device is signed out: its access token and its refresh cookie
    await waitFor(async () => (await me(other.json().access_token)).statusCode === 401, 'other session refused', 5000, 20);
    expect((await refresh(otherCookie)).statusCode).toBe(401);
    // this browser carries on with the cookies it was just given
    const fresh = cookieHeader(ok.headers['set-cookie']);
    expect((await gw.app.inject({ method: 'GET', url: IDENTITY_ROUTES.me, headers: { cookie: fresh } })).statusCode).toBe(200);
    expect((await refresh(fresh)).statusCode).toBe(200);
    expect((await signIn(person.email, 'Changer-Old-1')).statusCode).toBe(401);
    expect((await signIn(person.email, 'Changer-New-2')).statusCode).toBe(200);
  });

  it('staff may not change to a common password', async () => {
    const staff = await makePerson(gw, 'staff.changer@practice.co.uk', ['manager'], 'Manager-Change-1');
    const r = await change(staff.token, { current_password: staff.password, new_password: 'Iloveyou' });
    expect(r.statusCode).toBe(400);
    expect(err(r).message).toBe(MESSAGES.commonPassword);
  });

  it('an admin panel account changes its password with the current one; its other sessions end', async () => {
    const first = (await login(gw.app)).json().session_token as string;
    const second = await login(gw.app);
    const changeAdmin = (body: object) =>
      gw.app.inject({ method: 'POST', url: ADMIN_AUTH_ROUTES.changePassword, headers: bearer(first), payload: body });
    expect((await changeAdmin({ current_password: 'wrong-one', new_password: 'Admin-New-Pass-9' })).statusCode).toBe(401);
    const common = await changeAdmin({ current_password: ADMIN.password, new_password: 'trustno1' });
    expect(err(common).message).toBe(MESSAGES.commonPassword);
    const ok = await changeAdmin({ current_password: ADMIN.password, new_password: 'Admin-New-Pass-9' });
    expect(ok.statusCode, ok.body).toBe(200);
    const verify = (token: string) => gw.app.inject({ method: 'GET', url: ADMIN_AUTH_ROUTES.verify, headers: bearer(token) });
    await waitFor(async () => (await verify(second.json().session_token)).statusCode === 401, 'other admin session refused', 5000, 20);
    const fresh = cookieHeader(ok.headers['set-cookie']);
    expect((await gw.app.inject({ method: 'GET', url: ADMIN_AUTH_ROUTES.verify, headers: { cookie: fresh } })).statusCode).toBe(200);
    expect((await login(gw.app)).statusCode).toBe(401);
    expect((await login(gw.app, { username: ADMIN.username, password: 'Admin-New-Pass-9' })).statusCode).toBe(200);
    // a person's token cannot use the admin route, nor an admin's the person's
    const person = await makePerson(gw, 'not.an.admin@example.co.uk');
    expect(
      (
        await gw.app.inject({
          method: 'POST',
          url: ADMIN_AUTH_ROUTES.changePassword,
          headers: bearer(person.token),
          payload: { current_password: person.password, new_password: 'Whatever-1' },
        })
      ).statusCode,
    ).toBe(403);
  });
});
