import { MESSAGES } from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretCipher, totpContext } from '../src/domain/secret-cipher.js';
import { base32Decode, base32Encode, newTotpSecret, totp } from '../src/domain/totp.js';
import { londonDay, mustEnrolSecondFactor } from '../src/domain/two-factor-policy.js';
import { PASSKEY_MESSAGES } from '../src/use-cases/passkeys.js';
import { sealPlainTotpSecrets, TWO_FACTOR_MESSAGES } from '../src/use-cases/two-factor.js';
import { ADMIN, bearer, makePerson, startIdentity, type IdentityHarness } from './harness.js';

// Issue 32: enrolling an authenticator app, recovery codes, turning it off, the practice's
// "required from a date" rule for the staff side, and the secrets encrypted at rest. Real PostgreSQL.
let h: IdentityHarness;

beforeAll(async () => {
  h = await startIdentity();
});
afterAll(async () => {
  await h?.close();
});

const now = () => Math.floor(Date.now() / 1000);
const post = (url: string, token: string, payload?: object) =>
  h.app.inject({ method: 'POST', url: `/api/identity${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
const signIn = (body: Record<string, string>) => h.app.inject({ method: 'POST', url: '/api/identity/auth/login', payload: body });

async function adminToken(): Promise<string> {
  const r = await h.app.inject({ method: 'POST', url: '/api/identity/admin/login', payload: ADMIN });
  expect(r.statusCode, r.body).toBe(200);
  return r.json().session_token as string;
}

async function enrol(token: string, userId: string) {
  const start = await post('/auth/two-factor/totp', token);
  expect(start.statusCode, start.body).toBe(200);
  const { secret } = start.json() as { secret: string };
  const key = base32Decode(secret)!;
  const confirm = await post('/auth/two-factor/totp/confirm', token, { code: totp(key, now() - 30) });
  expect(confirm.statusCode, confirm.body).toBe(200);
  return { key, secret, userId, recovery: confirm.json().recovery_codes as string[] };
}

describe('enrolment and the secret at rest', () => {
  it('the stored secret is sealed (AES-256-GCM), not the base32 the app was given; sign-in opens it', async () => {
    const p = await makePerson(h, 'sealed.secret@practice.co.uk', ['staff'], 'Sealed-Secret-Pass-1');
    const { key, secret } = await enrol(p.token, p.id);
    const row = await h.kit.runtime.pool.query<{ secret: string }>('select secret from identity.totp_factors where user_id = $1', [p.id]);
    const stored = row.rows[0]!.secret;
    expect(stored).not.toBe(secret);
    expect(stored).not.toContain(secret);
    expect(SecretCipher.isSealed(stored)).toBe(true);
    // A sealed secret copied into another person's row does not open there (bound to its owner).
    expect(() => new SecretCipher(Buffer.alloc(32, 1)).open(stored, totpContext(p.id))).toThrow();
    const ok = await signIn({ email: p.email, password: p.password, totp_code: totp(key, now()) });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("the session keeps which second factor signed in (Gov-Client-Multi-Factor's data), through refreshes", async () => {
    const p = await makePerson(h, 'fraud.header@practice.co.uk', ['staff'], 'Fraud-Header-Pass-1');
    const { key, recovery } = await enrol(p.token, p.id);
    const plain = await h.kit.runtime.verifier.verify(p.token);
    expect(plain.secondFactor).toBeUndefined();
    const li = await signIn({ email: p.email, password: p.password, totp_code: totp(key, now()) });
    const withApp = await h.kit.runtime.verifier.verify(li.json().access_token);
    expect(withApp.secondFactor).toMatchObject({ type: 'TOTP', reference: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(Math.abs(withApp.secondFactor!.at - now())).toBeLessThan(60);
    const cookie = [li.headers['set-cookie']]
      .flat()
      .map((c) => String(c).split(';')[0])
      .join('; ');
    const refreshed = await h.app.inject({ method: 'POST', url: '/api/identity/auth/refresh', headers: { cookie } });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const at = [refreshed.headers['set-cookie']]
      .flat()
      .map((c) => String(c))
      .find((c) => c.startsWith('ch_at='));
    const again = await h.kit.runtime.verifier.verify(at!.split(';')[0]!.slice('ch_at='.length));
    expect(again.secondFactor).toEqual(withApp.secondFactor);
    const rc = await signIn({ email: p.email, password: p.password, recovery_code: recovery[0]! });
    const withCode = await h.kit.runtime.verifier.verify(rc.json().access_token);
    expect(withCode.secondFactor?.type).toBe('OTHER');
    expect(withCode.secondFactor?.reference).not.toBe(withApp.secondFactor?.reference);
  });

  it('rows from before the encryption are sealed once at start and still work', async () => {
    const p = await makePerson(h, 'plain.secret@practice.co.uk', ['staff'], 'Plain-Secret-Pass-1');
    const key = newTotpSecret();
    await h.kit.runtime.pool.query(`insert into identity.totp_factors (user_id, secret, confirmed_at) values ($1, $2, now())`, [
      p.id,
      base32Encode(key),
    ]);
    const cipher = new SecretCipher(Buffer.alloc(32, 7));
    expect(await sealPlainTotpSecrets({ db: h.kit.runtime.db, cipher })).toBeGreaterThanOrEqual(1);
    expect(await sealPlainTotpSecrets({ db: h.kit.runtime.db, cipher })).toBe(0);
    const row = await h.kit.runtime.pool.query<{ secret: string }>('select secret from identity.totp_factors where user_id = $1', [p.id]);
    expect(row.rows[0]!.secret).not.toBe(base32Encode(key));
    expect(cipher.open(row.rows[0]!.secret, totpContext(p.id))).toBe(base32Encode(key));
  });

  it('new recovery codes need a current code; the old ones stop working', async () => {
    const p = await makePerson(h, 'regen.codes@practice.co.uk', ['client'], 'Regen-Codes-Pass-1');
    const { key, recovery } = await enrol(p.token, p.id);
    expect((await post('/auth/two-factor/recovery-codes', p.token, { code: '000000' })).statusCode).toBe(400);
    const r = await post('/auth/two-factor/recovery-codes', p.token, { code: totp(key, now()) });
    expect(r.statusCode, r.body).toBe(200);
    const fresh = r.json().recovery_codes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recovery[0]);
    expect((await signIn({ email: p.email, password: p.password, recovery_code: recovery[0]! })).statusCode).toBe(401);
    expect((await signIn({ email: p.email, password: p.password, recovery_code: fresh[0]! })).statusCode).toBe(200);
  });

  it('turning it off takes the password and a code; then the password alone signs in', async () => {
    const p = await makePerson(h, 'turn.off@example.co.uk', ['client'], 'Turn-Off-Pass-1');
    const { key } = await enrol(p.token, p.id);
    const wrongPassword = await post('/auth/two-factor/disable', p.token, { password: 'Not-It-1', code: totp(key, now()) });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().error.message).toBe(TWO_FACTOR_MESSAGES.passwordWrong);
    const noCode = await post('/auth/two-factor/disable', p.token, { password: p.password });
    expect(noCode.statusCode).toBe(400);
    expect((await post('/auth/two-factor/disable', p.token, { password: p.password, code: '000000' })).statusCode).toBe(400);
    const off = await post('/auth/two-factor/disable', p.token, { password: p.password, code: totp(key, now()) });
    expect(off.statusCode, off.body).toBe(200);
    expect((await signIn({ email: p.email, password: p.password })).statusCode).toBe(200);
    const status = await h.app.inject({ method: 'GET', url: '/api/identity/auth/two-factor', headers: bearer(p.token) });
    expect(status.json()).toEqual({ totp_enabled: false, recovery_codes_left: 0 });
  });
});

describe('the practice requires two-factor sign-in of the staff side from a date', () => {
  // A rule of the practice's own (no statute sets it); dated examples of the day it starts, London time.
  it.each([
    [['staff'], '2026-12-01', '2026-11-30', false, false, 'the day before: not yet'],
    [['staff'], '2026-12-01', '2026-12-01', false, true, 'from the day itself'],
    [['manager'], '2026-12-01', '2027-01-15', false, true, 'a manager after the date'],
    [['accountant'], '2026-12-01', '2027-01-15', false, true, 'an accountant'],
    [['mlro'], '2026-12-01', '2027-01-15', false, true, 'an MLRO'],
    [['admin'], '2026-12-01', '2027-01-15', false, true, 'an administrator'],
    [['client'], '2026-12-01', '2027-01-15', false, false, 'never a client'],
    [['staff'], '2026-12-01', '2027-01-15', true, false, 'already enrolled'],
    [['staff'], null, '2027-01-15', false, false, 'no date set'],
  ] as const)('%j, required from %s, on %s, enrolled %s → %s (%s)', (roles, requiredFrom, today, hasSecondFactor, expected, _why) => {
    expect(mustEnrolSecondFactor({ roles, requiredFrom, today, hasSecondFactor })).toBe(expected);
  });

  it('London day: 23:30 UTC on 31 March 2027 is already 1 April in London (BST)', () => {
    expect(londonDay(new Date('2027-03-31T23:30:00Z'))).toBe('2027-04-01');
    expect(londonDay(new Date('2027-01-31T23:30:00Z'))).toBe('2027-01-31');
  });

  it('only administrators read and set the date', async () => {
    const mgr = await makePerson(h, 'policy.manager@practice.co.uk', ['manager']);
    const client = await makePerson(h, 'policy.client@example.co.uk', ['client']);
    const url = '/api/identity/security/two-factor-policy';
    for (const t of [mgr.token, client.token]) {
      expect((await h.app.inject({ method: 'GET', url, headers: bearer(t) })).statusCode).toBe(403);
      expect((await h.app.inject({ method: 'PUT', url, headers: bearer(t), payload: { required_from: '2026-01-01' } })).statusCode).toBe(
        403,
      );
    }
    expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const admin = await adminToken();
    const bad = await h.app.inject({ method: 'PUT', url, headers: bearer(admin), payload: { required_from: '1 Jan 2026' } });
    expect(bad.statusCode).toBe(400);
    const set = await h.app.inject({ method: 'PUT', url, headers: bearer(admin), payload: { required_from: '2099-01-01' } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().required_from).toBe('2099-01-01');
    expect((await h.app.inject({ method: 'GET', url, headers: bearer(admin) })).json().required_from).toBe('2099-01-01');
    // A date in the future changes nothing today.
    const s = await makePerson(h, 'policy.future@practice.co.uk', ['staff']);
    expect((await signIn({ email: s.email, password: s.password })).json().two_factor_enrolment_required).toBeUndefined();
    expect((await h.app.inject({ method: 'PUT', url, headers: bearer(admin), payload: { required_from: null } })).statusCode).toBe(200);
  });

  it('from the date, each staff-side role is led to enrolment (only enrolment answers); clients are not', async () => {
    const admin = await adminToken();
    const url = '/api/identity/security/two-factor-policy';
    const people = await Promise.all(
      (['admin', 'manager', 'staff', 'accountant', 'mlro', 'client'] as const).map((role) =>
        makePerson(h, `required.${role}@practice.co.uk`, [role], `Required-${role}-Pass-1`).then((p) => ({ role, ...p })),
      ),
    );
    const today = londonDay();
    expect((await h.app.inject({ method: 'PUT', url, headers: bearer(admin), payload: { required_from: today } })).statusCode).toBe(200);
    try {
      for (const p of people) {
        const li = await signIn({ email: p.email, password: p.password });
        expect(li.statusCode, li.body).toBe(200);
        const token = li.json().access_token as string;
        const pending = li.json().two_factor_enrolment_required === true;
        expect(pending, p.role).toBe(p.role !== 'client');
        // Anything else (here the staff list or the lockouts view) answers the enrolment code.
        const other = await h.app.inject({ method: 'GET', url: '/api/identity/auth/two-factor', headers: bearer(token) });
        expect(other.statusCode, p.role).toBe(200);
        const staffList = await h.app.inject({ method: 'GET', url: '/api/identity/staff', headers: bearer(token) });
        if (pending) {
          expect(staffList.statusCode, p.role).toBe(403);
          expect(staffList.json().error.code).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
          expect(staffList.json().error.message).toBe(MESSAGES.twoFactorEnrolmentRequired);
          expect((await h.app.inject({ method: 'GET', url: '/api/identity/auth/me', headers: bearer(token) })).statusCode).toBe(200);
          // Enrolment works with that token; the next token carries no restriction.
          await enrol(token, p.id);
          const again = await h.app.inject({
            method: 'POST',
            url: '/api/identity/auth/refresh',
            headers: {
              cookie: li.headers['set-cookie']
                ? [li.headers['set-cookie']]
                    .flat()
                    .map((c) => c.split(';')[0])
                    .join('; ')
                : '',
            },
          });
          expect(again.statusCode, again.body).toBe(200);
          expect(again.json().two_factor_enrolment_required).toBeUndefined();
        } else {
          expect(staffList.json().error?.code).not.toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
        }
      }
    } finally {
      await h.app.inject({ method: 'PUT', url, headers: bearer(admin), payload: { required_from: null } });
    }
  });
});

describe('passkeys: who may call what (the ceremony itself runs in the browser suite)', () => {
  it('the relying party is the public site; a loopback address becomes localhost', async () => {
    const { relyingParty } = await import('../src/use-cases/passkeys.js');
    expect(relyingParty('https://portal.practice.co.uk', 'P')).toEqual({
      id: 'portal.practice.co.uk',
      name: 'P',
      origins: ['https://portal.practice.co.uk'],
    });
    expect(relyingParty('http://127.0.0.1:4100', 'P')).toEqual({
      id: 'localhost',
      name: 'P',
      origins: ['http://localhost:4100', 'http://127.0.0.1:4100'],
    });
  });

  it('adding needs a session; signing in needs none, and an unknown or replayed challenge is refused', async () => {
    const list = await h.app.inject({ method: 'GET', url: '/api/identity/auth/passkeys' });
    expect(list.statusCode).toBe(401);
    expect((await h.app.inject({ method: 'POST', url: '/api/identity/auth/passkeys/register/options' })).statusCode).toBe(401);
    const p = await makePerson(h, 'passkey.person@example.co.uk', ['client'], 'Passkey-Person-Pass-1');
    const reg = await post('/auth/passkeys/register/options', p.token);
    expect(reg.statusCode, reg.body).toBe(200);
    expect(reg.json().options.authenticatorSelection).toMatchObject({ residentKey: 'required', userVerification: 'required' });
    // A made-up answer is refused without a 500.
    const bogus = await post('/auth/passkeys/register', p.token, {
      challenge_id: reg.json().challenge_id,
      response: {
        id: 'abc',
        rawId: 'abc',
        type: 'public-key',
        response: { clientDataJSON: 'e30', attestationObject: 'oA' },
        clientExtensionResults: {},
      },
    });
    expect(bogus.statusCode).toBe(400);
    // The challenge was spent by that attempt.
    const again = await post('/auth/passkeys/register', p.token, { challenge_id: reg.json().challenge_id, response: { id: 'abc' } });
    expect(again.statusCode).toBe(400);

    const opts = await h.app.inject({ method: 'POST', url: '/api/identity/auth/passkeys/sign-in/options' });
    expect(opts.statusCode).toBe(200);
    expect(opts.json().options.userVerification).toBe('required');
    const unknown = await h.app.inject({
      method: 'POST',
      url: '/api/identity/auth/passkeys/sign-in',
      payload: { challenge_id: opts.json().challenge_id, response: { id: 'not-a-registered-credential' } },
    });
    expect(unknown.statusCode).toBe(401);
    const replayed = await h.app.inject({
      method: 'POST',
      url: '/api/identity/auth/passkeys/sign-in',
      payload: { challenge_id: opts.json().challenge_id, response: { id: 'not-a-registered-credential' } },
    });
    expect(replayed.statusCode).toBe(400);
    expect(
      (await h.app.inject({ method: 'DELETE', url: `/api/identity/auth/passkeys/${randomUUID()}`, headers: bearer(p.token) })).statusCode,
    ).toBe(404);
  });

  it('a person with a passkey and no authenticator app cannot sign in with the password alone', async () => {
    const p = await makePerson(h, 'passkey.only@example.co.uk', ['client'], 'Passkey-Only-Pass-1');
    await h.kit.runtime.pool.query(
      `insert into identity.passkeys (user_id, credential_id, public_key, name) values ($1, 'cred-passkey-only', 'pk', 'Phone')`,
      [p.id],
    );
    const r = await signIn({ email: p.email, password: p.password });
    expect(r.statusCode).toBe(401);
    expect(r.json().error.message).toBe(PASSKEY_MESSAGES.useIt);
  });
});
