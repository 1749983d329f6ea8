import { MESSAGES } from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminTotpContext, SecretCipher, totpContext } from '../src/domain/secret-cipher.js';
import { base32Decode, totp } from '../src/domain/totp.js';
import { londonDay } from '../src/domain/two-factor-policy.js';
import { hashPassword } from '../src/adapters/passwords.js';
import { ADMIN_RESET_MESSAGES, TWO_FACTOR_MESSAGES } from '../src/use-cases/two-factor.js';
import { bearer, cookieHeader, makePerson, startIdentity, tokenFor, type IdentityHarness } from './harness.js';

// Issue 32, its last gap: the admin panel's own accounts (identity.admin_users, /admin/login) get the
// same authenticator-app second factor as people, in their own tables. Real PostgreSQL.
let h: IdentityHarness;

beforeAll(async () => {
  h = await startIdentity();
});
afterAll(async () => {
  await h?.close();
});

const now = () => Math.floor(Date.now() / 1000);
const api = (method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, token?: string, payload?: object, remoteAddress?: string) =>
  h.app.inject({
    method,
    url: `/api/identity${url}`,
    headers: token ? bearer(token) : {},
    ...(payload ? { payload } : {}),
    ...(remoteAddress ? { remoteAddress } : {}),
  });
const adminLogin = (body: Record<string, string>, remoteAddress?: string) => api('POST', '/admin/login', undefined, body, remoteAddress);

/** A new active admin panel account (as the bootstrap makes one), signed in without a second factor. */
async function makeAdmin(username: string) {
  const password = `${username}-Pass-1!`;
  const row = await h.kit.runtime.pool.query<{ id: string }>(
    `insert into identity.admin_users (username, password_hash, role) values ($1, $2, 'admin') returning id`,
    [username, await hashPassword(password)],
  );
  const li = await adminLogin({ username, password });
  expect(li.statusCode, li.body).toBe(200);
  return {
    id: row.rows[0]!.id,
    username,
    password,
    token: li.json().session_token as string,
    cookie: cookieHeader(li.headers['set-cookie']),
  };
}

/** Set up the app for a signed-in admin panel account: the secret's bytes and the ten recovery codes. */
async function enrolAdmin(token: string) {
  const start = await api('POST', '/admin/two-factor/totp', token);
  expect(start.statusCode, start.body).toBe(200);
  const { secret, otpauth_uri } = start.json() as { secret: string; otpauth_uri: string };
  expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\//);
  const key = base32Decode(secret)!;
  // Confirmed with the previous step's code, so the current one is still free for a sign-in.
  const confirm = await api('POST', '/admin/two-factor/totp/confirm', token, { code: totp(key, now() - 30) });
  expect(confirm.statusCode, confirm.body).toBe(200);
  return { key, secret, recovery: confirm.json().recovery_codes as string[] };
}

describe('an admin panel account sets up an authenticator app', () => {
  it('status, enrolment, confirmation: ten recovery codes once; the secret sealed in its own table and context', async () => {
    const a = await makeAdmin('enrol.admin');
    expect((await api('GET', '/admin/two-factor', a.token)).json()).toEqual({ totp_enabled: false, recovery_codes_left: 0 });
    expect((await api('POST', '/admin/two-factor/totp/confirm', a.token, { code: '123456' })).statusCode).toBe(409);
    const start = await api('POST', '/admin/two-factor/totp', a.token);
    expect(start.headers['cache-control']).toBe('no-store');
    const key = base32Decode(start.json().secret)!;
    expect(start.json().otpauth_uri).toContain(encodeURIComponent('enrol.admin (admin panel)'));
    const wrong = await api('POST', '/admin/two-factor/totp/confirm', a.token, { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe(TWO_FACTOR_MESSAGES.codeWrong);
    const ok = await api('POST', '/admin/two-factor/totp/confirm', a.token, { code: totp(key, now()) });
    expect(ok.statusCode, ok.body).toBe(200);
    const codes = ok.json().recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await api('GET', '/admin/two-factor', a.token)).json()).toEqual({ totp_enabled: true, recovery_codes_left: 10 });
    // Once on, a second start is refused (it would replace the secret).
    expect((await api('POST', '/admin/two-factor/totp', a.token)).statusCode).toBe(409);

    const row = await h.kit.runtime.pool.query<{ secret: string }>('select secret from identity.admin_totp_factors where admin_id = $1', [
      a.id,
    ]);
    const stored = row.rows[0]!.secret;
    expect(SecretCipher.isSealed(stored)).toBe(true);
    expect(stored).not.toContain(start.json().secret);
    // Nothing went into the people's table, and the recovery codes are hashes.
    expect((await h.kit.runtime.pool.query('select 1 from identity.totp_factors where user_id = $1', [a.id])).rowCount).toBe(0);
    const hashes = await h.kit.runtime.pool.query<{ code_hash: string }>(
      'select code_hash from identity.admin_recovery_codes where admin_id = $1',
      [a.id],
    );
    expect(hashes.rows).toHaveLength(10);
    expect(hashes.rows.map((r) => r.code_hash)).not.toContain(codes[0]);
    // The admin context is not a person's: the same sealed value does not open as a person's secret.
    const cipher = new SecretCipher(Buffer.alloc(32, 3));
    const sealedForAdmin = cipher.seal('JBSWY3DPEHPK3PXP', adminTotpContext(a.id));
    expect(() => cipher.open(sealedForAdmin, totpContext(a.id))).toThrow();
    expect(cipher.open(sealedForAdmin, adminTotpContext(a.id))).toBe('JBSWY3DPEHPK3PXP');
  });

  it("people's tokens (any role) cannot use the admin panel's two-factor routes; no token gets 401", async () => {
    const person = await makePerson(h, 'people.admin@practice.co.uk', ['admin'], 'People-Admin-Pass-1');
    for (const [method, url, payload] of [
      ['GET', '/admin/two-factor', undefined],
      ['POST', '/admin/two-factor/totp', undefined],
      ['POST', '/admin/two-factor/totp/confirm', { code: '123456' }],
      ['POST', '/admin/two-factor/recovery-codes', { code: '123456' }],
      ['POST', '/admin/two-factor/disable', { password: 'x', code: '123456' }],
    ] as const) {
      const asPerson = await api(method, url, person.token, payload);
      expect(asPerson.statusCode, `${method} ${url}`).toBe(403);
      expect(asPerson.json().error.message).toBe(MESSAGES.noAccessToArea);
      const staff = await api(method, url, await tokenFor(h, { roles: ['staff'] }), payload);
      expect(staff.statusCode, `${method} ${url}`).toBe(403);
      expect((await api(method, url, undefined, payload)).statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe('/admin/login with two-factor sign-in on', () => {
  it('asks for the code, takes a good one once, refuses the same code twice; the session records the factor', async () => {
    const a = await makeAdmin('login.admin');
    const { key, recovery } = await enrolAdmin(a.token);
    const none = await adminLogin({ username: a.username, password: a.password });
    expect(none.statusCode).toBe(401);
    expect(none.json().error.message).toBe(TWO_FACTOR_MESSAGES.codeRequired);
    expect(none.json().error.details).toEqual([{ path: 'totp_code', message: 'required' }]);
    expect(none.headers['set-cookie']).toBeUndefined();
    // A wrong password with a good code is still the password's message.
    const badPassword = await adminLogin({ username: a.username, password: 'not-the-password', totp_code: totp(key, now()) });
    expect(badPassword.statusCode).toBe(401);
    expect(badPassword.json().error.message).toBe(MESSAGES.invalidCredentials);

    const code = totp(key, now());
    const ok = await adminLogin({ username: a.username, password: a.password, totp_code: code });
    expect(ok.statusCode, ok.body).toBe(200);
    const principal = await h.kit.runtime.verifier.verify(ok.json().session_token);
    expect(principal.kind).toBe('admin');
    expect(principal.secondFactor).toMatchObject({ type: 'TOTP', reference: expect.stringMatching(/^[0-9a-f]{64}$/) });
    // Kept beside the session: a refreshed token carries it too.
    const refreshed = await h.app.inject({
      method: 'POST',
      url: '/api/identity/admin/refresh',
      headers: { cookie: cookieHeader(ok.headers['set-cookie']) },
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const at = cookieHeader(refreshed.headers['set-cookie'])
      .split('; ')
      .find((c) => c.startsWith('ch_at='))!
      .slice('ch_at='.length);
    expect((await h.kit.runtime.verifier.verify(at)).secondFactor).toEqual(principal.secondFactor);

    const replay = await adminLogin({ username: a.username, password: a.password, totp_code: code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.code).toBe('INVALID_CREDENTIALS');
    expect(replay.json().error.message).toBe(TWO_FACTOR_MESSAGES.codeWrong);

    // A recovery code works once.
    const rc = await adminLogin({ username: a.username, password: a.password, recovery_code: recovery[0]! });
    expect(rc.statusCode, rc.body).toBe(200);
    expect((await h.kit.runtime.verifier.verify(rc.json().session_token)).secondFactor?.type).toBe('OTHER');
    const again = await adminLogin({ username: a.username, password: a.password, recovery_code: recovery[0]! });
    expect(again.statusCode).toBe(401);
    expect(again.json().error.message).toBe(TWO_FACTOR_MESSAGES.codeWrong);
    expect((await api('GET', '/admin/two-factor', rc.json().session_token)).json()).toEqual({ totp_enabled: true, recovery_codes_left: 9 });
  });

  it('wrong codes count with wrong passwords: the fifth failure starts the sign-in delay (429)', async () => {
    const a = await makeAdmin('throttle.admin');
    const { key } = await enrolAdmin(a.token);
    // From an address that never signed in to this account (a known one keeps signing in).
    const from = '203.0.113.77';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await adminLogin({ username: a.username, password: a.password, totp_code: '000000' }, from)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    const row = await h.kit.runtime.pool.query<{ failures: number }>(
      `select failures from identity.sign_in_throttle where scope = 'admin' and key = $1`,
      [a.username],
    );
    expect(row.rows[0]?.failures).toBe(5);
    // While the delay lasts even a good code is refused from there, without being checked.
    const blocked = await adminLogin({ username: a.username, password: a.password, totp_code: totp(key, now()) }, from);
    expect(blocked.statusCode).toBe(429);
  });

  it('new recovery codes need a current code; turning it off needs the password and a code; then the password alone signs in', async () => {
    const a = await makeAdmin('off.admin');
    const { key, recovery } = await enrolAdmin(a.token);
    expect((await api('POST', '/admin/two-factor/recovery-codes', a.token, { code: '000000' })).statusCode).toBe(400);
    const renew = await api('POST', '/admin/two-factor/recovery-codes', a.token, { code: totp(key, now()) });
    expect(renew.statusCode, renew.body).toBe(200);
    const fresh = renew.json().recovery_codes as string[];
    expect(fresh).toHaveLength(10);
    expect((await adminLogin({ username: a.username, password: a.password, recovery_code: recovery[1]! })).statusCode).toBe(401);

    const wrongPassword = await api('POST', '/admin/two-factor/disable', a.token, { password: 'Not-It-1', recovery_code: fresh[0]! });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().error.message).toBe(TWO_FACTOR_MESSAGES.passwordWrong);
    expect((await api('POST', '/admin/two-factor/disable', a.token, { password: a.password })).statusCode).toBe(400);
    const off = await api('POST', '/admin/two-factor/disable', a.token, { password: a.password, recovery_code: fresh[0]! });
    expect(off.statusCode, off.body).toBe(200);
    expect((await adminLogin({ username: a.username, password: a.password })).statusCode).toBe(200);
    expect((await api('GET', '/admin/two-factor', a.token)).json()).toEqual({ totp_enabled: false, recovery_codes_left: 0 });
    const event = await h.kit.runtime.pool.query(
      `select 1 from identity.outbox where type = 'identity.second_factor_reset' and envelope->'data'->>'userId' = $1
          and envelope->'data'->>'account' = 'admin_panel'`,
      [a.id],
    );
    expect(event.rowCount).toBe(1);
  });
});

describe("the practice's rule holds admin panel accounts too", () => {
  it('from the date, an account without a second factor signs in but reaches only its set-up; enrolled, a refresh lifts it', async () => {
    const a = await makeAdmin('policy.admin');
    const url = '/security/two-factor-policy';
    expect((await api('PUT', url, a.token, { required_from: londonDay() })).statusCode).toBe(200);
    try {
      const li = await adminLogin({ username: a.username, password: a.password });
      expect(li.statusCode, li.body).toBe(200);
      expect(li.json().two_factor_enrolment_required).toBe(true);
      const token = li.json().session_token as string;
      expect((await h.kit.runtime.verifier.verify(token)).enrolmentPending).toBe(true);
      // Anything else answers the enrolment code, here the roles page and the password change.
      for (const [method, path] of [
        ['GET', '/roles'],
        ['GET', '/security/lockouts'],
        ['GET', '/users'],
      ] as const) {
        const r = await api(method, path, token);
        expect(r.statusCode, path).toBe(403);
        expect(r.json().error.code).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
        expect(r.json().error.message).toBe(MESSAGES.twoFactorEnrolmentRequired);
      }
      // The session check and the set-up answer.
      const session = await api('GET', '/admin/session', token);
      expect(session.statusCode, session.body).toBe(200);
      expect(session.json().two_factor_enrolment_required).toBe(true);
      await enrolAdmin(token);
      const refreshed = await h.app.inject({
        method: 'POST',
        url: '/api/identity/admin/refresh',
        headers: { cookie: cookieHeader(li.headers['set-cookie']) },
      });
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      expect(refreshed.json().two_factor_enrolment_required).toBeUndefined();
      const at = cookieHeader(refreshed.headers['set-cookie'])
        .split('; ')
        .find((c) => c.startsWith('ch_at='))!
        .slice('ch_at='.length);
      expect((await api('GET', '/roles', at)).statusCode).toBe(200);
    } finally {
      // (every admin panel account without a second factor is held to its set-up now: straight in the database)
      await h.kit.runtime.pool.query('update identity.two_factor_policy set required_from = null');
    }
  });

  it('before the date nothing changes', async () => {
    const a = await makeAdmin('future.admin');
    const url = '/security/two-factor-policy';
    expect((await api('PUT', url, a.token, { required_from: '2099-01-01' })).statusCode).toBe(200);
    try {
      const li = await adminLogin({ username: a.username, password: a.password });
      expect(li.json().two_factor_enrolment_required).toBeUndefined();
      expect((await api('GET', '/roles', li.json().session_token)).statusCode).toBe(200);
    } finally {
      await api('PUT', url, a.token, { required_from: null });
    }
  });
});

describe("another administrator resets an admin panel account's second factor", () => {
  it('recorded as identity.second_factor_reset; never one’s own; unknown or without a factor is 404; only administrators', async () => {
    const lost = await makeAdmin('lost.phone.admin');
    await enrolAdmin(lost.token);
    const other = await makeAdmin('helper.admin');
    const path = `/roles/admin-accounts/${lost.id}/two-factor`;

    const self = await api('DELETE', path, lost.token);
    expect(self.statusCode).toBe(403);
    expect(self.json().error.message).toBe(ADMIN_RESET_MESSAGES.self);
    const staff = await makePerson(h, 'reset.staff@practice.co.uk', ['manager'], 'Reset-Staff-Pass-1');
    expect((await api('DELETE', path, staff.token)).statusCode).toBe(403);
    expect((await api('DELETE', path)).statusCode).toBe(401);
    expect((await api('DELETE', `/roles/admin-accounts/${randomUUID()}/two-factor`, other.token)).statusCode).toBe(404);
    expect((await api('DELETE', '/roles/admin-accounts/not-a-uuid/two-factor', other.token)).statusCode).toBe(400);
    // Still on after the refusals.
    expect((await adminLogin({ username: lost.username, password: lost.password })).statusCode).toBe(401);

    const reset = await api('DELETE', path, other.token);
    expect(reset.statusCode, reset.body).toBe(200);
    const li = await adminLogin({ username: lost.username, password: lost.password });
    expect(li.statusCode, li.body).toBe(200);
    expect((await api('GET', '/admin/two-factor', li.json().session_token)).json()).toEqual({
      totp_enabled: false,
      recovery_codes_left: 0,
    });
    expect((await h.kit.runtime.pool.query('select 1 from identity.admin_recovery_codes where admin_id = $1', [lost.id])).rowCount).toBe(0);
    const event = await h.kit.runtime.pool.query<{ actor: string }>(
      `select envelope->'actor'->>'id' as actor from identity.outbox
        where type = 'identity.second_factor_reset' and envelope->'data'->>'userId' = $1 and envelope->'data'->>'account' = 'admin_panel'`,
      [lost.id],
    );
    expect(event.rows.map((r) => r.actor)).toEqual([other.id]);
    // Nothing left to reset.
    expect((await api('DELETE', path, other.token)).statusCode).toBe(404);

    // A person holding the administrator role may reset it too (the same guard as deactivating the account).
    const again = await enrolAdmin(li.json().session_token);
    expect(again.recovery).toHaveLength(10);
    const personAdmin = await makePerson(h, 'reset.admin.person@practice.co.uk', ['admin'], 'Reset-Admin-Person-1');
    expect((await api('DELETE', path, personAdmin.token)).statusCode).toBe(200);
  });
});
