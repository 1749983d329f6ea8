import { createRuntime, type App, type Runtime } from '@countinghouse/kit';
import { MESSAGES } from '@countinghouse/proto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeAllInOne } from '../src/compose.js';
import { ADMIN, bearer, cookieHeader, makePerson, startTestGateway, type TestGateway } from './helpers.js';

// The probe, as attacks: racing guesses, a stranger locking a user out, revoked tokens used
// straight after the answer or after a restart, and an old refresh token replayed.

let gw: TestGateway;
let adminToken = '';
beforeAll(async () => {
  gw = await startTestGateway();
  const li = await signIn('/api/identity/admin/login', ADMIN, '10.0.0.1');
  expect(li.statusCode).toBe(200);
  adminToken = li.json().session_token;
});
afterAll(async () => {
  await gw?.close();
});

const PEOPLE_LOGIN = '/api/identity/auth/login';
const ADMIN_LOGIN = '/api/identity/admin/login';

function signIn(url: string, payload: object, remoteAddress: string, app: App = gw.app) {
  return app.inject({ method: 'POST', url, payload, remoteAddress });
}

async function counter(scope: 'user' | 'admin' | 'address', key: string): Promise<number> {
  const { rows } = await gw.kit.runtime.pool.query('select failures from identity.sign_in_throttle where scope = $1 and key = $2', [
    scope,
    key,
  ]);
  return rows[0]?.failures ?? 0;
}

async function lockoutsOf(key: string) {
  const { rows } = await gw.kit.runtime.pool.query(
    `select level, failures, address, extract(epoch from (until - started_at))::int as seconds
       from identity.sign_in_lockouts where key = $1 order by level, started_at`,
    [key],
  );
  return rows as Array<{ level: number; failures: number; address: string; seconds: number }>;
}

describe('racing guesses all count', () => {
  it('20 concurrent wrong guesses on a person count 20 (delays at 5, 10, 15, 20)', async () => {
    const p = await makePerson(gw, 'race.person@x.co.uk', ['client']);
    const codes = await Promise.all(
      Array.from({ length: 20 }, () => signIn(PEOPLE_LOGIN, { email: p.email, password: 'wrong' }, '10.20.0.1').then((r) => r.statusCode)),
    );
    expect(codes.every((c) => c === 401 || c === 429)).toBe(true);
    expect(await counter('user', p.email)).toBe(20);
    expect(await counter('address', '10.20.0.1')).toBe(20);
    expect((await lockoutsOf(p.email)).map((l) => l.level)).toEqual([0, 1, 2, 3]);
    // and the right password from that address is refused now
    const right = await signIn(PEOPLE_LOGIN, { email: p.email, password: p.password }, '10.20.0.1');
    expect(right.statusCode).toBe(429);
  });

  it('20 concurrent wrong guesses on an admin panel account count 20', async () => {
    const codes = await Promise.all(
      Array.from({ length: 20 }, () =>
        signIn(ADMIN_LOGIN, { username: ADMIN.username.toUpperCase(), password: 'wrong' }, '10.21.0.1').then((r) => r.statusCode),
      ),
    );
    expect(codes.every((c) => c === 401 || c === 429)).toBe(true);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(1);
    expect(await counter('admin', ADMIN.username)).toBe(20);
    // the administrator's usual address still signs in
    expect((await signIn(ADMIN_LOGIN, ADMIN, '10.0.0.1')).statusCode).toBe(200);
    // a stranger with the right password does not
    const stranger = await signIn(ADMIN_LOGIN, ADMIN, '10.21.0.2');
    expect(stranger.statusCode).toBe(429);
  });
});

describe("a stranger's guesses cannot lock the user out", () => {
  it('the usual address signs in during the delay; strangers (and new addresses) wait, right password or not', async () => {
    const p = await makePerson(gw, 'target@x.co.uk', ['staff']);
    expect((await signIn(PEOPLE_LOGIN, { email: p.email, password: p.password }, '10.30.0.1')).statusCode).toBe(200);
    const codes: number[] = [];
    for (let i = 0; i < 7; i++)
      codes.push((await signIn(PEOPLE_LOGIN, { email: p.email, password: `guess-${i}` }, '10.30.6.6')).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 429, 429, 429]);
    // the user, from the address they signed in from before: in, during the delay, with the spec's welcome
    const user = await signIn(PEOPLE_LOGIN, { email: p.email, password: p.password, portal: 'staff' }, '10.30.0.1');
    expect(user.statusCode).toBe(200);
    expect(user.json().message).toBe(MESSAGES.welcomeBack);
    // ... and a wrong password from there is still the spec's message, not a delay
    const typo = await signIn(PEOPLE_LOGIN, { email: p.email, password: 'typo' }, '10.30.0.1');
    expect(typo.statusCode).toBe(401);
    expect(typo.json().error).toEqual({ code: 'INVALID_CREDENTIALS', message: MESSAGES.invalidEmailOrPassword });
    // the stranger with the right password, and an address never used: refused without a password check
    for (const address of ['10.30.6.6', '10.30.0.99']) {
      const r = await signIn(PEOPLE_LOGIN, { email: p.email, password: p.password }, address);
      expect(r.statusCode).toBe(429);
      expect(r.json().error.code).toBe('RATE_LIMITED');
    }
  });

  it('an unknown e-mail behaves exactly like a known one (codes, messages, delays)', async () => {
    const known = await makePerson(gw, 'known.enum@x.co.uk', ['client']);
    const run = async (email: string, address: string) => {
      const out: string[] = [];
      for (let i = 0; i < 7; i++) {
        const r = await signIn(PEOPLE_LOGIN, { email, password: 'nope' }, address);
        out.push(`${r.statusCode} ${r.json().error.message} ${r.headers['retry-after'] ?? '-'}`);
      }
      return out;
    };
    const a = await run(known.email, '10.31.0.1');
    const b = await run('nobody.enum@x.co.uk', '10.31.0.2');
    expect(b).toEqual(a);
    expect(a[0]).toBe(`401 ${MESSAGES.invalidEmailOrPassword} -`);
    expect(a[4]).toMatch(new RegExp(`^429 ${MESSAGES.signInDelayed(1).replace(/\./g, '\\.')} (60|59)$`));
    expect(await counter('user', 'nobody.enum@x.co.uk')).toBe(7);
  });
});

describe('delays grow', () => {
  it('1, 2, 4 minutes for each further five attempts, told in the message and Retry-After', async () => {
    const p = await makePerson(gw, 'grow@x.co.uk', ['client']);
    const waits: Array<string | undefined> = [];
    for (let i = 1; i <= 15; i++) {
      const r = await signIn(PEOPLE_LOGIN, { email: p.email, password: 'bad' }, '10.40.0.1');
      if (i % 5 === 0) {
        expect(r.statusCode).toBe(429);
        waits.push(r.json().error.message);
      }
    }
    expect(waits).toEqual([MESSAGES.signInDelayed(1), MESSAGES.signInDelayed(2), MESSAGES.signInDelayed(4)]);
    const rows = await lockoutsOf(p.email);
    expect(rows.map((r) => [r.level, r.failures, Math.round(r.seconds / 60)])).toEqual([
      [0, 5, 1],
      [1, 10, 2],
      [2, 15, 4],
    ]);
  });

  it('one address spraying guesses over many accounts is delayed itself, for every account', async () => {
    const victim = await makePerson(gw, 'spray.victim@x.co.uk', ['client']);
    expect((await signIn(PEOPLE_LOGIN, { email: victim.email, password: victim.password }, '10.50.0.1')).statusCode).toBe(200);
    let last = 0;
    for (let i = 0; i < 30; i++) last = (await signIn(PEOPLE_LOGIN, { email: `spray${i}@x.co.uk`, password: 'x' }, '10.50.0.1')).statusCode;
    expect(last).toBe(429);
    expect(await counter('address', '10.50.0.1')).toBe(30);
    // each sprayed account saw one attempt only: none is delayed
    expect(await counter('user', 'spray0@x.co.uk')).toBe(1);
    expect((await signIn(PEOPLE_LOGIN, { email: victim.email, password: victim.password }, '10.50.0.1')).statusCode).toBe(429);
    expect((await signIn(PEOPLE_LOGIN, { email: victim.email, password: victim.password }, '10.50.0.2')).statusCode).toBe(200);
  });
});

describe('administrators see the delays', () => {
  it('GET /security/lockouts lists who, from where, when, until and the count; the user list says locked', async () => {
    const p = await makePerson(gw, 'seen@x.co.uk', ['client']);
    for (let i = 0; i < 5; i++) await signIn(PEOPLE_LOGIN, { email: p.email, password: 'bad' }, '10.60.0.7');
    const r = await gw.app.inject({ method: 'GET', url: '/api/identity/security/lockouts', headers: bearer(adminToken) });
    expect(r.statusCode).toBe(200);
    const entry = r.json().lockouts.find((l: { account: string | null }) => l.account === p.email);
    expect(entry).toMatchObject({ scope: 'user', account: p.email, address: '10.60.0.7', failures: 5, level: 0, active: true });
    expect(new Date(entry.until).getTime() - new Date(entry.started_at).getTime()).toBe(60_000);
    expect(r.json().active).toBeGreaterThanOrEqual(1);
    const users = await gw.app.inject({ method: 'GET', url: `/api/identity/users?search=seen%40x.co.uk`, headers: bearer(adminToken) });
    expect(users.json().users[0]).toMatchObject({ email: p.email, status: 'locked' });
    // staff may not see it
    const staff = await makePerson(gw, 'lockout.staff@x.co.uk', ['staff']);
    expect((await gw.app.inject({ method: 'GET', url: '/api/identity/security/lockouts', headers: bearer(staff.token) })).statusCode).toBe(
      403,
    );
  });
});

/** A route that trusts the token alone (no session lookup): what every other service does. */
const tokenOnly = (token: string) => gw.app.inject({ method: 'GET', url: '/api/crm/stats', headers: bearer(token) });

describe('a revoked token is refused in the very next request', () => {
  it('sign-out, 20 times: zero accepted', { timeout: 60_000 }, async () => {
    const p = await makePerson(gw, 'out@x.co.uk', ['staff']);
    let accepted = 0;
    for (let i = 0; i < 20; i++) {
      const li = await signIn(PEOPLE_LOGIN, { email: p.email, password: p.password }, '10.70.0.1');
      const token = li.json().access_token as string;
      expect((await tokenOnly(token)).statusCode).toBe(200);
      const out = await gw.app.inject({ method: 'POST', url: '/api/identity/auth/logout', headers: bearer(token) });
      expect(out.json()).toEqual({ success: true, message: MESSAGES.loggedOut });
      if ((await tokenOnly(token)).statusCode !== 401) accepted++;
    }
    expect(accepted).toBe(0);
  });

  // Each round signs a person up and in (two password hashes): allow for a busy machine.
  it('staff deactivation, 20 times: zero accepted', { timeout: 90_000 }, async () => {
    let accepted = 0;
    for (let i = 0; i < 20; i++) {
      const a = await makePerson(gw, `deact${i}@x.co.uk`, ['staff']);
      expect((await tokenOnly(a.token)).statusCode).toBe(200);
      const d = await gw.app.inject({ method: 'POST', url: `/api/identity/staff/${a.id}/deactivate`, headers: bearer(adminToken) });
      expect(d.json().message).toBe(MESSAGES.staffDeactivated);
      if ((await tokenOnly(a.token)).statusCode !== 401) accepted++;
    }
    expect(accepted).toBe(0);
  });

  it('role revocation, 20 times: zero accepted', { timeout: 90_000 }, async () => {
    let accepted = 0;
    for (let i = 0; i < 20; i++) {
      const b = await makePerson(gw, `revoke${i}@x.co.uk`, ['manager']);
      expect((await tokenOnly(b.token)).statusCode).toBe(200);
      const r = await gw.app.inject({ method: 'DELETE', url: `/api/identity/roles/manager/people/${b.id}`, headers: bearer(adminToken) });
      expect(r.json().message).toBe(MESSAGES.roleRevoked);
      if ((await tokenOnly(b.token)).statusCode !== 401) accepted++;
    }
    expect(accepted).toBe(0);
  });
});

describe('revocations survive a restart of the all-in-one app', () => {
  let second: { app: App; runtime: Runtime } | null = null;
  afterAll(async () => {
    await second?.app.close();
    await second?.runtime.close();
  });

  it(
    'a second app on the same database refuses signed-out, deactivated and demoted tokens, and accepts a live one',
    { timeout: 60_000 },
    async () => {
      const out = await makePerson(gw, 'restart.out@x.co.uk', ['staff']);
      await gw.app.inject({ method: 'POST', url: '/api/identity/auth/logout', headers: bearer(out.token) });
      const deact = await makePerson(gw, 'restart.deact@x.co.uk', ['staff']);
      await gw.app.inject({ method: 'POST', url: `/api/identity/staff/${deact.id}/deactivate`, headers: bearer(adminToken) });
      const demoted = await makePerson(gw, 'restart.demoted@x.co.uk', ['manager']);
      await gw.app.inject({ method: 'DELETE', url: `/api/identity/roles/manager/people/${demoted.id}`, headers: bearer(adminToken) });
      const live = await makePerson(gw, 'restart.live@x.co.uk', ['staff']);

      const runtime = await createRuntime({
        serviceName: 'restarted',
        databaseUrl: gw.kit.db.url,
        poolSize: 3,
        publicKeyPem: gw.kit.keys.publicKeyPem,
        logger: pino({ level: 'silent' }),
      });
      const app = await composeAllInOne({
        runtime,
        signer: gw.kit.signer,
        logger: pino({ level: 'silent' }),
        frontendDir: null,
        signInMax: 1000,
        publicConfig: () => ({ demoMode: true, maintenance: false, practice: { name: 'Test Practice', phone: '0100', email: 'a@b.c' } }),
      });
      second = { app, runtime };
      const on = (token: string) => app.inject({ method: 'GET', url: '/api/crm/stats', headers: bearer(token) });
      for (const p of [out, deact, demoted]) expect((await on(p.token)).statusCode, p.email).toBe(401);
      expect((await on(live.token)).statusCode).toBe(200);
      // and the signed-out admin panel token too
      const li = await signIn(ADMIN_LOGIN, ADMIN, '10.0.0.1');
      const adminOut = li.json().session_token as string;
      await gw.app.inject({ method: 'POST', url: '/api/identity/admin/logout', headers: bearer(adminOut) });
      const thirdRuntime = await createRuntime({
        serviceName: 'restarted-again',
        databaseUrl: gw.kit.db.url,
        poolSize: 2,
        publicKeyPem: gw.kit.keys.publicKeyPem,
        logger: pino({ level: 'silent' }),
      });
      const third = await composeAllInOne({
        runtime: thirdRuntime,
        signer: gw.kit.signer,
        logger: pino({ level: 'silent' }),
        frontendDir: null,
        publicConfig: () => ({ demoMode: true, maintenance: false, practice: { name: 'T', phone: '0', email: 'a@b.c' } }),
      });
      try {
        expect((await third.inject({ method: 'GET', url: '/api/identity/users', headers: bearer(adminOut) })).statusCode).toBe(401);
        expect((await third.inject({ method: 'GET', url: '/api/identity/users', headers: bearer(adminToken) })).statusCode).toBe(200);
      } finally {
        await third.close();
        await thirdRuntime.close();
      }
    },
  );
});

describe('refresh-token reuse anywhere in the family ends the session', () => {
  async function chain(refreshUrl: string, first: string) {
    const cookies = [first];
    let access = '';
    for (let i = 0; i < 2; i++) {
      const r = await gw.app.inject({ method: 'POST', url: refreshUrl, headers: { cookie: cookies.at(-1)! } });
      expect(r.statusCode).toBe(200);
      cookies.push(cookieHeader(r.headers['set-cookie']));
      access = /ch_at=([^;]+)/.exec(cookies.at(-1)!)![1]!;
    }
    return { cookies, access };
  }

  it('a person: rt1 reused after rt1→rt2→rt3 kills rt3 and the live access token', async () => {
    const p = await makePerson(gw, 'family@x.co.uk', ['staff']);
    const { cookies, access } = await chain('/api/identity/auth/refresh', p.cookie);
    expect((await tokenOnly(access)).statusCode).toBe(200);
    const replay = await gw.app.inject({ method: 'POST', url: '/api/identity/auth/refresh', headers: { cookie: cookies[0]! } });
    expect(replay.statusCode).toBe(401);
    expect((await tokenOnly(access)).statusCode).toBe(401);
    const rt3 = await gw.app.inject({ method: 'POST', url: '/api/identity/auth/refresh', headers: { cookie: cookies[2]! } });
    expect(rt3.statusCode).toBe(401);
  });

  it('an admin panel session: the same', async () => {
    const li = await signIn(ADMIN_LOGIN, ADMIN, '10.0.0.1');
    const { cookies, access } = await chain('/api/identity/admin/refresh', cookieHeader(li.headers['set-cookie']));
    const users = (t: string) => gw.app.inject({ method: 'GET', url: '/api/identity/users', headers: bearer(t) });
    expect((await users(access)).statusCode).toBe(200);
    expect((await gw.app.inject({ method: 'POST', url: '/api/identity/admin/refresh', headers: { cookie: cookies[0]! } })).statusCode).toBe(
      401,
    );
    expect((await users(access)).statusCode).toBe(401);
    expect((await gw.app.inject({ method: 'POST', url: '/api/identity/admin/refresh', headers: { cookie: cookies[2]! } })).statusCode).toBe(
      401,
    );
  });
});
