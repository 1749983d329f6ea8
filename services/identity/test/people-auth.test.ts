import { MESSAGES } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieHeader, makePerson, startIdentity, type IdentityHarness } from './harness.js';

// Client sign-up, sign-in, lock-out, refresh and logout: identity alone (moved from gateway/test/people.test.ts).
let h: IdentityHarness;
beforeAll(async () => {
  h = await startIdentity();
});
afterAll(async () => {
  await h?.close();
});

const err = (r: { json(): unknown }) => (r.json() as { error: { code: string; message: string } }).error;

describe('client sign-up and sign-in', () => {
  it('creates an account with the spec message, a client profile and role', async () => {
    const r = await h.app.inject({
      method: 'POST',
      url: '/api/identity/auth/signup',
      payload: { email: 'Owner@Bakery.co.uk', password: 'olive-secret-1', first_name: 'Olive', company_name: 'Olive Bakery Ltd' },
    });
    expect(r.statusCode).toBe(201);
    expect(r.json()).toEqual({ success: true, message: MESSAGES.accountCreated });
    const li = await h.app.inject({
      method: 'POST',
      url: '/api/identity/auth/login',
      payload: { email: 'owner@bakery.co.uk', password: 'olive-secret-1' },
    });
    expect(li.statusCode).toBe(200);
    expect(li.json()).toMatchObject({
      success: true,
      message: MESSAGES.loginSuccessful,
      roles: ['client'],
      staff_role: null,
      user: { email: 'owner@bakery.co.uk', role: 'client', company_name: 'Olive Bakery Ltd' },
    });
    const me = await h.app.inject({
      method: 'GET',
      url: '/api/identity/auth/me',
      headers: { cookie: cookieHeader(li.headers['set-cookie']) },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.first_name).toBe('Olive');
  });

  it('refuses a duplicate e-mail (any case) with 409 and writes nothing', async () => {
    await h.app.inject({ method: 'POST', url: '/api/identity/auth/signup', payload: { email: 'dup@x.co.uk', password: 'olive-secret-1' } });
    const again = await h.app.inject({
      method: 'POST',
      url: '/api/identity/auth/signup',
      payload: { email: 'DUP@x.co.uk', password: 'secret2' },
    });
    expect(again.statusCode).toBe(409);
    const { rows } = await h.kit.runtime.pool.query(`select count(*)::int as n from identity.users where lower(email) = 'dup@x.co.uk'`);
    expect(rows[0].n).toBe(1);
  });

  it('bad sign-up input: short password, bad e-mail, wrong types, extra fields', async () => {
    const cases = [
      [{ email: 'a@b.co', password: '12345' }, MESSAGES.passwordTooShort],
      [{ email: 'not-an-email', password: 'olive-secret-1' }, null],
      [{ email: 42, password: 'olive-secret-1' }, null],
      [{ email: 'a@b.co', password: 'olive-secret-1', role: 'admin' }, null],
      [{ email: 'x'.repeat(260) + '@b.co', password: 'olive-secret-1' }, null],
    ] as const;
    for (const [payload, message] of cases) {
      const r = await h.app.inject({ method: 'POST', url: '/api/identity/auth/signup', payload: payload as object });
      expect(r.statusCode, JSON.stringify(payload)).toBe(400);
      if (message) expect(err(r).message).toBe(message);
    }
    const { rows } = await h.kit.runtime.pool.query(
      `select count(*)::int as n from identity.users where email like 'a@b.co%' or email = 'not-an-email'`,
    );
    expect(rows[0].n).toBe(0);
  });

  it("wrong credentials: 'Invalid email or password', the same for an unknown e-mail", async () => {
    await h.app.inject({
      method: 'POST',
      url: '/api/identity/auth/signup',
      payload: { email: 'known@x.co.uk', password: 'olive-secret-1' },
    });
    for (const email of ['known@x.co.uk', 'unknown@x.co.uk']) {
      const r = await h.app.inject({ method: 'POST', url: '/api/identity/auth/login', payload: { email, password: 'wrong-one' } });
      expect(r.statusCode).toBe(401);
      expect(err(r)).toEqual({ code: 'INVALID_CREDENTIALS', message: MESSAGES.invalidEmailOrPassword });
    }
  });

  it('locks an e-mail after five failures, known or not, without saying which exists', async () => {
    await h.app.inject({
      method: 'POST',
      url: '/api/identity/auth/signup',
      payload: { email: 'lock@x.co.uk', password: 'olive-secret-1' },
    });
    for (const email of ['lock@x.co.uk', 'ghost@x.co.uk']) {
      const codes: number[] = [];
      for (let i = 0; i < 6; i++)
        codes.push(
          (await h.app.inject({ method: 'POST', url: '/api/identity/auth/login', payload: { email, password: 'bad' } })).statusCode,
        );
      expect(codes).toEqual([401, 401, 401, 401, 429, 429]);
    }
    // even the right password is refused while locked
    const r = await h.app.inject({
      method: 'POST',
      url: '/api/identity/auth/login',
      payload: { email: 'lock@x.co.uk', password: 'olive-secret-1' },
    });
    expect(r.statusCode).toBe(429);
  });

  it('refresh rotates and re-reads roles; logout revokes', async () => {
    const p = await makePerson(h, 'rot@x.co.uk', ['client']);
    const r1 = await h.app.inject({ method: 'POST', url: '/api/identity/auth/refresh', headers: { cookie: p.cookie } });
    expect(r1.statusCode).toBe(200);
    expect(r1.json().roles).toEqual(['client']);
    const c2 = cookieHeader(r1.headers['set-cookie']);
    const replay = await h.app.inject({ method: 'POST', url: '/api/identity/auth/refresh', headers: { cookie: p.cookie } });
    expect(replay.statusCode).toBe(401);
    expect(err(replay).message).toBe(MESSAGES.userSessionExpired);
    // reuse ended the session for the rotated cookie too
    expect((await h.app.inject({ method: 'GET', url: '/api/identity/auth/me', headers: { cookie: c2 } })).statusCode).toBe(401);
  });
});
