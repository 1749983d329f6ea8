import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, totp } from '../../services/identity/src/domain/totp.js';
import { TWO_FACTOR_MESSAGES } from '../../services/identity/src/use-cases/two-factor.js';
import { ADMIN, bearer, login, makePerson, startTestGateway, type TestGateway } from './helpers.js';

// Issue 32: two-factor sign-in with an authenticator app (TOTP) and ten single-use recovery codes.
let gw: TestGateway;

beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
});

const signIn = (body: Record<string, string>) => gw.app.inject({ method: 'POST', url: '/api/identity/auth/login', payload: body });
const now = () => Math.floor(Date.now() / 1000);

async function enrol(token: string) {
  const start = await gw.app.inject({ method: 'POST', url: '/api/identity/auth/two-factor/totp', headers: bearer(token) });
  expect(start.statusCode, start.body).toBe(200);
  const { secret, otpauth_uri } = start.json() as { secret: string; otpauth_uri: string };
  expect(otpauth_uri).toMatch(/^otpauth:\/\/totp\/.+\?secret=[A-Z2-7]+&issuer=/);
  const key = base32Decode(secret)!;
  // The code of the previous step: the sign-in below then has a later, unused one.
  const confirm = await gw.app.inject({
    method: 'POST',
    url: '/api/identity/auth/two-factor/totp/confirm',
    headers: bearer(token),
    payload: { code: totp(key, now() - 30) },
  });
  expect(confirm.statusCode, confirm.body).toBe(200);
  return { key, recovery: confirm.json().recovery_codes as string[] };
}

describe('two-factor sign-in (TOTP)', () => {
  it('a staff member with TOTP signs in with password + code; the same code again is refused; a recovery code works once', async () => {
    const p = await makePerson(gw, 'two.factor@practice.co.uk', ['staff'], 'Two-Factor-Pass-1');
    const { key, recovery } = await enrol(p.token);
    expect(recovery).toHaveLength(10);
    const stored = await gw.kit.runtime.pool.query(`select code_hash from identity.recovery_codes where user_id = $1`, [p.id]);
    expect(stored.rows).toHaveLength(10);
    expect(stored.rows.map((r) => r.code_hash)).not.toContain(recovery[0]);

    // Password alone: asked for the code.
    const bare = await signIn({ email: p.email, password: p.password, portal: 'staff' });
    expect(bare.statusCode).toBe(401);
    expect(bare.json().error.message).toBe(TWO_FACTOR_MESSAGES.codeRequired);
    // A wrong code: refused.
    const wrong = await signIn({ email: p.email, password: p.password, totp_code: '000000' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.message).toBe(TWO_FACTOR_MESSAGES.codeWrong);
    // The right code: in.
    const code = totp(key, now());
    const ok = await signIn({ email: p.email, password: p.password, totp_code: code, portal: 'staff' });
    expect(ok.statusCode, ok.body).toBe(200);
    // The same code a second time, within its window: refused.
    const replay = await signIn({ email: p.email, password: p.password, totp_code: code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.message).toBe(TWO_FACTOR_MESSAGES.codeWrong);
    // A wrong password with a good code is still a wrong password.
    expect((await signIn({ email: p.email, password: 'Not-The-Pass-1', recovery_code: recovery[0]! })).json().error.message).not.toBe(
      TWO_FACTOR_MESSAGES.codeWrong,
    );
    // A recovery code works once (typed with spaces and capitals), then never again.
    const rc = await signIn({ email: p.email, password: p.password, recovery_code: recovery[0]!.toUpperCase().replace(/-/g, ' ') });
    expect(rc.statusCode, rc.body).toBe(200);
    expect((await signIn({ email: p.email, password: p.password, recovery_code: recovery[0]! })).statusCode).toBe(401);
    const status = await gw.app.inject({ method: 'GET', url: '/api/identity/auth/two-factor', headers: bearer(rc.json().access_token) });
    expect(status.json()).toEqual({ totp_enabled: true, recovery_codes_left: 9 });
  });

  it('wrong codes are rate-limited like passwords', async () => {
    const p = await makePerson(gw, 'two.factor.limit@practice.co.uk', ['staff'], 'Two-Factor-Pass-2');
    await enrol(p.token);
    // From an address this account never signed in from, as a thief with the password would be: the
    // account's delay starts at the fifth wrong code, exactly as for wrong passwords.
    const codes: number[] = [];
    for (let i = 0; i < 6; i++)
      codes.push(
        (
          await gw.app.inject({
            method: 'POST',
            url: '/api/identity/auth/login',
            remoteAddress: '203.0.113.9',
            payload: { email: p.email, password: p.password, totp_code: '000000' },
          })
        ).statusCode,
      );
    expect(codes).toEqual([401, 401, 401, 401, 429, 429]);
  });

  it('an administrator can reset a second factor (recorded); others cannot', async () => {
    const p = await makePerson(gw, 'two.factor.lost@practice.co.uk', ['staff'], 'Two-Factor-Pass-3');
    const mgr = await makePerson(gw, 'two.factor.mgr@practice.co.uk', ['manager']);
    await enrol(p.token);
    const url = `/api/identity/users/${p.id}/two-factor`;
    expect((await gw.app.inject({ method: 'DELETE', url, headers: bearer(mgr.token) })).statusCode).toBe(403);
    expect((await gw.app.inject({ method: 'DELETE', url })).statusCode).toBe(401);
    const admin = (await login(gw.app)).json().session_token as string;
    const r = await gw.app.inject({ method: 'DELETE', url, headers: bearer(admin) });
    expect(r.statusCode, r.body).toBe(200);
    const recorded = await gw.kit.runtime.pool.query(
      `select count(*)::int as n from identity.outbox where type = 'identity.second_factor_reset' and envelope->'data'->>'userId' = $1`,
      [p.id],
    );
    expect(recorded.rows[0].n).toBe(1);
    expect((await signIn({ email: p.email, password: p.password })).statusCode).toBe(200);
    expect((await gw.app.inject({ method: 'DELETE', url, headers: bearer(admin) })).statusCode).toBe(404);
  });

  it('a person without a second factor signs in as before; a client may turn it on too', async () => {
    const c = await makePerson(gw, 'two.factor.client@example.co.uk', ['client'], 'Client-Two-Pass-1');
    expect((await signIn({ email: c.email, password: c.password })).statusCode).toBe(200);
    const { key } = await enrol(c.token);
    expect((await signIn({ email: c.email, password: c.password })).statusCode).toBe(401);
    expect((await signIn({ email: c.email, password: c.password, totp_code: totp(key, now()) })).statusCode).toBe(200);
  });
});

describe('two-factor required from a date (the gateway as the one door)', () => {
  it('a staff member without a second factor reaches only enrolment through the gateway, in any service', async () => {
    const admin = (await login(gw.app)).json().session_token as string;
    const url = '/api/identity/security/two-factor-policy';
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
    const p = await makePerson(gw, 'two.factor.required@practice.co.uk', ['manager'], 'Required-Manager-Pass-1');
    expect((await gw.app.inject({ method: 'PUT', url, headers: bearer(admin), payload: { required_from: today } })).statusCode).toBe(200);
    try {
      const li = await signIn({ email: p.email, password: p.password, portal: 'staff' });
      expect(li.statusCode, li.body).toBe(200);
      expect(li.json().two_factor_enrolment_required).toBe(true);
      const token = li.json().access_token as string;
      // crm (no requireRole of identity's making): refused at the gateway with the clear code.
      for (const path of ['/api/crm/clients', '/api/documents', '/api/integrations']) {
        const r = await gw.app.inject({ method: 'GET', url: path, headers: bearer(token) });
        expect(r.statusCode, path).toBe(403);
        expect(r.json().error.code, path).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
      }
      expect((await gw.app.inject({ method: 'GET', url: '/api/identity/auth/me', headers: bearer(token) })).statusCode).toBe(200);
      const { key } = await enrol(token);
      const after = await signIn({ email: p.email, password: p.password, totp_code: totp(key, now()) });
      expect(after.statusCode, after.body).toBe(200);
      expect(after.json().two_factor_enrolment_required).toBeUndefined();
      const crm = await gw.app.inject({ method: 'GET', url: '/api/crm/clients', headers: bearer(after.json().access_token) });
      expect(crm.statusCode, crm.body).toBe(200);
    } finally {
      await gw.app.inject({ method: 'PUT', url, headers: bearer(admin), payload: { required_from: null } });
    }
  });

  it('an admin panel account without a second factor reaches only its session check, refresh, sign-out and set-up through the gateway', async () => {
    const admin = (await login(gw.app)).json().session_token as string;
    const url = '/api/identity/security/two-factor-policy';
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
    expect((await gw.app.inject({ method: 'PUT', url, headers: bearer(admin), payload: { required_from: today } })).statusCode).toBe(200);
    try {
      const li = await login(gw.app);
      expect(li.statusCode, li.body).toBe(200);
      expect(li.json().two_factor_enrolment_required).toBe(true);
      const token = li.json().session_token as string;
      for (const path of ['/api/crm/clients', '/api/identity/roles', '/api/settings']) {
        const r = await gw.app.inject({ method: 'GET', url: path, headers: bearer(token) });
        expect(r.statusCode, path).toBe(403);
        expect(r.json().error.code, path).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
      }
      const session = await gw.app.inject({ method: 'GET', url: '/api/identity/admin/session', headers: bearer(token) });
      expect(session.statusCode, session.body).toBe(200);
      expect(session.json().two_factor_enrolment_required).toBe(true);
      const start = await gw.app.inject({ method: 'POST', url: '/api/identity/admin/two-factor/totp', headers: bearer(token) });
      expect(start.statusCode, start.body).toBe(200);
      const key = base32Decode(start.json().secret)!;
      const confirm = await gw.app.inject({
        method: 'POST',
        url: '/api/identity/admin/two-factor/totp/confirm',
        headers: bearer(token),
        payload: { code: totp(key, now() - 30) },
      });
      expect(confirm.statusCode, confirm.body).toBe(200);
      // The refresh (with the restricted access cookie beside the refresh cookie) passes the gateway and lifts it.
      const cookie = [li.headers['set-cookie']]
        .flat()
        .map((c) => String(c).split(';')[0])
        .join('; ');
      const refreshed = await gw.app.inject({ method: 'POST', url: '/api/identity/admin/refresh', headers: { cookie } });
      expect(refreshed.statusCode, refreshed.body).toBe(200);
      expect(refreshed.json().two_factor_enrolment_required).toBeUndefined();
      const again = await login(gw.app, { ...ADMIN, totp_code: totp(key, now()) });
      expect(again.statusCode, again.body).toBe(200);
      expect(
        (await gw.app.inject({ method: 'GET', url: '/api/crm/clients', headers: bearer(again.json().session_token) })).statusCode,
      ).toBe(200);
    } finally {
      await gw.kit.runtime.pool.query('update identity.two_factor_policy set required_from = null');
      await gw.kit.runtime.pool.query('delete from identity.admin_totp_factors');
    }
  });
});
