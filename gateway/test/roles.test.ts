import { waitFor } from '@countinghouse/kit/testing';
import { MESSAGES, permissionsOf, ROLE_DESCRIPTIONS, ROLE_HOLDERS_LIMIT, ROLES, ROLES_ROUTES, type RoleList } from '@countinghouse/proto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, makePerson, startTestGateway, type Person, type TestGateway } from './helpers.js';

// The User Roles API (/api/identity/roles): who may call it, the role matrix, grant, revoke, the
// last-admin rule (also under two admins removing each other at once), and the events it emits.
let gw: TestGateway;
let adminSession = '';
let adminAccountId = '';

beforeAll(async () => {
  gw = await startTestGateway();
  const li = await login(gw.app);
  adminSession = li.json().session_token;
  adminAccountId = li.json().user.id;
});
afterAll(async () => {
  await gw?.close();
});

const list = async (token = adminSession) => {
  const r = await gw.app.inject({ method: 'GET', url: ROLES_ROUTES.list, headers: bearer(token) });
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as RoleList;
};
const holdersOf = (l: RoleList, role: string) => l.roles.find((r) => r.role === role)!.holders;
const grant = (body: object, token = adminSession) =>
  gw.app.inject({ method: 'POST', url: ROLES_ROUTES.grants, headers: bearer(token), payload: body });
const revoke = (role: string, userId: string, token = adminSession) =>
  gw.app.inject({ method: 'DELETE', url: ROLES_ROUTES.personGrant(role, userId), headers: bearer(token) });
const deactivateAccount = (id: string, token = adminSession) =>
  gw.app.inject({ method: 'DELETE', url: ROLES_ROUTES.adminAccount(id), headers: bearer(token) });

/**
 * Both requests at the same moment, for real: the test holds the lock every removal of an administrator
 * takes (services/identity/src/db/admins.ts) while the two requests start, so both are signed in and wait
 * inside their transactions, then lets them go. (Without it the second request may be checked after the
 * first has committed, and is then refused as signed out: a 401, not the race this is about.)
 */
async function whileAdminsLocked<T>(start: () => [Promise<T>, Promise<T>]): Promise<[T, T]> {
  // (connections of their own: the app's pool is small and its two transactions will hold two)
  const holder = new pg.Client({ connectionString: gw.kit.runtime.pool.options.connectionString });
  await holder.connect();
  try {
    await holder.query(`select pg_advisory_lock(hashtext('identity.active_admins'))`);
    const pending = start();
    // both wait on the lock: two sessions of this database blocked on an advisory lock
    await waitFor(async () => {
      const { rows } = await holder.query(
        `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`,
      );
      return rows[0].n >= pending.length;
    }, "both requests waiting on the administrators' lock");
    await holder.query(`select pg_advisory_unlock(hashtext('identity.active_admins'))`);
    return await Promise.all(pending);
  } finally {
    await holder.end();
  }
}

async function outboxOf(type: string, key: string) {
  const { rows } = await gw.kit.runtime.pool.query(`select envelope from identity.outbox where type = $1 and key = $2 order by id`, [
    type,
    key,
  ]);
  return rows.map((r) => r.envelope as { data: Record<string, unknown>; actor: { kind: string; id: string } });
}

describe('only administrators reach the roles API', () => {
  const callers: Array<[string, () => Promise<string | null>]> = [
    ['anonymous', async () => null],
    ['client', async () => (await makePerson(gw, 'r.client@x.co.uk', ['client'])).token],
    ['accountant', async () => (await makePerson(gw, 'r.acc@x.co.uk', ['accountant'])).token],
    ['staff', async () => (await makePerson(gw, 'r.staff@x.co.uk', ['staff'])).token],
    ['manager', async () => (await makePerson(gw, 'r.manager@x.co.uk', ['manager'])).token],
  ];
  for (const [who, tokenOf] of callers) {
    it(`${who} is refused every route`, async () => {
      const token = await tokenOf();
      const headers = token ? bearer(token) : {};
      const target = await makePerson(gw, `r.target.${who}@x.co.uk`, ['staff']);
      const calls = [
        { method: 'GET' as const, url: ROLES_ROUTES.list },
        { method: 'POST' as const, url: ROLES_ROUTES.grants, payload: { role: 'admin', email: target.email } },
        { method: 'DELETE' as const, url: ROLES_ROUTES.personGrant('staff', target.id) },
        { method: 'DELETE' as const, url: ROLES_ROUTES.adminAccount(adminAccountId) },
      ];
      for (const c of calls) {
        const r = await gw.app.inject({ ...c, headers });
        expect(r.statusCode, `${c.method} ${c.url}: ${r.body}`).toBe(token ? 403 : 401);
      }
      // nothing changed
      const l = await list();
      expect(holdersOf(l, 'admin').map((h) => h.id)).not.toContain(target.id);
      expect(holdersOf(l, 'staff').map((h) => h.id)).toContain(target.id);
      expect(holdersOf(l, 'admin').map((h) => h.id)).toContain(adminAccountId);
    });
  }

  it('an admin person and the admin panel session are let in', async () => {
    const boss = await makePerson(gw, 'r.boss@x.co.uk', ['admin']);
    expect((await gw.app.inject({ method: 'GET', url: ROLES_ROUTES.list, headers: bearer(boss.token) })).statusCode).toBe(200);
    expect((await gw.app.inject({ method: 'GET', url: ROLES_ROUTES.list, headers: bearer(adminSession) })).statusCode).toBe(200);
    expect((await revoke('admin', boss.id)).statusCode).toBe(200);
  });
});

describe('the role matrix', () => {
  it('lists the five roles with their description, the permissions of the table and their holders', async () => {
    const boss = await makePerson(gw, 'm.boss@x.co.uk', ['admin']);
    const acc = await makePerson(gw, 'm.acc@x.co.uk', ['accountant']);
    const l = await list();
    expect(l.roles.map((r) => r.role)).toEqual([...ROLES]);
    for (const r of l.roles) {
      expect(r.description).toBe(ROLE_DESCRIPTIONS[r.role]);
      expect(r.permissions).toEqual(permissionsOf(r.role));
    }
    expect(l.roles.find((r) => r.role === 'admin')!.permissions).toContain('roles');
    expect(l.roles.find((r) => r.role === 'client')!.permissions).toEqual([
      'two_factor.own',
      'documents.view',
      'documents.upload',
      'deadlines.view',
      'engagement.view',
      'engagement.sign',
      'requests.view',
    ]);
    const admins = holdersOf(l, 'admin');
    expect(admins.find((h) => h.id === adminAccountId)).toMatchObject({ kind: 'admin_account', username: 'practice.admin', email: null });
    expect(admins.find((h) => h.id === boss.id)).toMatchObject({ kind: 'person', email: 'm.boss@x.co.uk', username: null });
    expect(holdersOf(l, 'accountant').find((h) => h.id === acc.id)).toMatchObject({ kind: 'person', email: 'm.acc@x.co.uk' });
    // every signed-up person holds client until it is revoked; makePerson removed it for these two
    expect(holdersOf(l, 'client').map((h) => h.id)).not.toContain(acc.id);
    expect(l.active_admins).toBe(admins.length);
    expect((await revoke('admin', boss.id)).statusCode).toBe(200);
  });
  it("lists each role's most recent holders only, with the count of all (thousands of clients)", async () => {
    const pool = gw.kit.runtime.pool;
    // ROLE_HOLDERS_LIMIT + 5 clients, granted a minute apart, straight into identity's tables
    const n = ROLE_HOLDERS_LIMIT + 5;
    const before = l0(await list());
    await pool.query(
      `with u as (
         insert into identity.users (email, password_hash)
         select 'bulk' || i || '@holders.test', 'x' from generate_series(1, $1::int) i returning id, email)
       , p as (insert into identity.profiles (user_id, email) select id, email from u returning user_id)
       insert into identity.user_roles (user_id, role, granted_at)
       select u.id, 'client', now() - (row_number() over (order by u.email desc)) * interval '1 minute' - interval '1 day' from u`,
      [n],
    );
    const newest = await makePerson(gw, 'holders.newest@x.co.uk', ['client']);
    const l = await list();
    const client = l.roles.find((r) => r.role === 'client')!;
    expect(client.holder_count).toBe(before + n + 1);
    expect(client.holders).toHaveLength(ROLE_HOLDERS_LIMIT);
    expect(client.holders[0]!.id).toBe(newest.id);
    const since = client.holders.map((h) => h.since);
    expect([...since].sort().reverse()).toEqual(since);
  });
});

const l0 = (l: RoleList) => l.roles.find((r) => r.role === 'client')!.holder_count;

describe('grant and revoke', () => {
  it('grants by e-mail (any case), announces it, and refuses a second grant with 409', async () => {
    const p = await makePerson(gw, 'grantee@x.co.uk', ['client']);
    const r = await grant({ role: 'manager', email: 'Grantee@X.co.uk' });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json().message).toBe(MESSAGES.roleGranted);
    const l = await list();
    expect(holdersOf(l, 'manager').find((h) => h.id === p.id)).toMatchObject({ name: 'grantee', email: 'grantee@x.co.uk' });
    expect(holdersOf(l, 'client').map((h) => h.id)).toContain(p.id);
    const events = await outboxOf('identity.role_changed', p.id);
    expect(events.at(-1)!.data).toEqual({ userId: p.id, role: 'manager', isActive: true, email: 'grantee@x.co.uk', name: 'grantee' });
    expect(events.at(-1)!.actor).toMatchObject({ kind: 'admin', id: adminAccountId });
    // the user list shows the highest role held
    const { rows } = await gw.kit.runtime.pool.query('select role from identity.profiles where user_id = $1', [p.id]);
    expect(rows[0].role).toBe('manager');

    const again = await grant({ role: 'manager', user_id: p.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(MESSAGES.roleAlreadyHeld);
    expect(await outboxOf('identity.role_changed', p.id)).toHaveLength(events.length);
  });

  it('an MLRO-only person shows as MLRO in the user list, a manager who is also MLRO as manager', async () => {
    const roleOf = async (id: string) =>
      (await gw.kit.runtime.pool.query('select role from identity.profiles where user_id = $1', [id])).rows[0].role;
    const p = await makePerson(gw, 'mlro.only@x.co.uk', ['client']);
    expect((await grant({ role: 'mlro', user_id: p.id })).statusCode).toBe(201);
    expect(await roleOf(p.id)).toBe('mlro');
    const users = await gw.app.inject({ method: 'GET', url: '/api/identity/users?search=mlro.only', headers: bearer(adminSession) });
    expect(users.json().users.find((u: { user_id: string }) => u.user_id === p.id)?.role).toBe('mlro');
    expect((await grant({ role: 'manager', user_id: p.id })).statusCode).toBe(201);
    expect(await roleOf(p.id)).toBe('manager');
  });

  it('404 for an unknown person, 400 without one, 400 for an unknown role', async () => {
    const unknown = await grant({ role: 'staff', email: 'nobody@x.co.uk' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(MESSAGES.personNotFound);
    expect((await grant({ role: 'staff', user_id: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    expect((await grant({ role: 'staff' })).statusCode).toBe(400);
    expect((await grant({ role: 'owner', email: 'grantee@x.co.uk' })).statusCode).toBe(400);
  });

  it('revoking takes effect on the next request: the token and the refresh cookie stop working; events in the outbox', async () => {
    const p = await makePerson(gw, 'revokee@x.co.uk', ['staff']);
    const staffList = () => gw.app.inject({ method: 'GET', url: '/api/crm/stats', headers: bearer(p.token) });
    expect((await staffList()).statusCode).toBe(200);
    const r = await revoke('staff', p.id);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().message).toBe(MESSAGES.roleRevoked);
    await waitFor(async () => (await staffList()).statusCode === 401, 'old token refused', 5000, 20);
    expect((await gw.app.inject({ method: 'POST', url: '/api/identity/auth/refresh', headers: { cookie: p.cookie } })).statusCode).toBe(
      401,
    );
    expect(holdersOf(await list(), 'staff').map((h) => h.id)).not.toContain(p.id);
    const changed = await outboxOf('identity.role_changed', p.id);
    expect(changed.at(-1)!.data).toMatchObject({ userId: p.id, role: 'staff', isActive: false, email: 'revokee@x.co.uk' });
    expect((await outboxOf('identity.subject_access_revoked', p.id)).length).toBe(1);
    // signing in again: the staff portal now refuses them
    const again = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/auth/login',
      payload: { email: p.email, password: p.password, portal: 'staff' },
    });
    expect(again.statusCode).toBe(403);
    // a revoked grant is not there to revoke twice, and can be granted again
    expect((await revoke('staff', p.id)).statusCode).toBe(404);
    expect((await grant({ role: 'staff', user_id: p.id })).statusCode).toBe(201);
    expect(holdersOf(await list(), 'staff').map((h) => h.id)).toContain(p.id);
  });
});

describe('the last active administrator', () => {
  let a: Person;
  let b: Person;

  it('can not be removed: people and admin panel accounts both count', async () => {
    a = await makePerson(gw, 'admin.a@x.co.uk', ['admin']);
    // the admin panel account may go while a person holds admin...
    const off = await deactivateAccount(adminAccountId, a.token);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().message).toBe(MESSAGES.adminAccountDeactivated);
    expect((await login(gw.app)).statusCode).toBe(401);
    await waitFor(
      async () => (await gw.app.inject({ method: 'GET', url: ROLES_ROUTES.list, headers: bearer(adminSession) })).statusCode === 401,
      'admin panel session cut',
      5000,
      20,
    );
    const l = await list(a.token);
    expect(l.active_admins).toBe(1);
    expect(holdersOf(l, 'admin').map((h) => h.id)).toEqual([a.id]);
    // ...but the last one stays, whoever asks
    const refused = await revoke('admin', a.id, a.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(MESSAGES.lastAdminRefused);
    expect((await list(a.token)).active_admins).toBe(1);
    // deactivating them as staff is refused the same way (through another admin who then leaves)
    b = await makePerson(gw, 'admin.b@x.co.uk', ['admin']);
    expect((await revoke('admin', b.id, a.token)).statusCode).toBe(200);
    expect((await list(a.token)).active_admins).toBe(1);
  });

  it('two admins revoking each other at the same moment leave one', async () => {
    for (let round = 0; round < 3; round++) {
      const p = await makePerson(gw, `pair.p${round}@x.co.uk`, ['admin']);
      const q = await makePerson(gw, `pair.q${round}@x.co.uk`, ['admin']);
      // the current admin steps down so that p and q are the only two
      const off = await revoke('admin', a.id, p.token);
      expect(off.statusCode, off.body).toBe(200);
      expect((await list(p.token)).active_admins).toBe(2);
      const [r1, r2] = await whileAdminsLocked(() => [revoke('admin', q.id, p.token), revoke('admin', p.id, q.token)]);
      expect([r1.statusCode, r2.statusCode].sort()).toEqual([200, 409]);
      expect((r1.statusCode === 409 ? r1 : r2).json().error.message).toBe(MESSAGES.lastAdminRefused);
      const survivor = r1.statusCode === 200 ? p : q;
      const l = await list(survivor.token);
      expect(l.active_admins).toBe(1);
      expect(holdersOf(l, 'admin').map((h) => h.id)).toEqual([survivor.id]);
      a = survivor;
    }
  });

  it('staff deactivation takes the same lock: revoking and deactivating each other at once leave one admin', async () => {
    const c = await makePerson(gw, 'admin.c@x.co.uk', ['admin']);
    expect((await revoke('admin', a.id, c.token)).statusCode).toBe(200);
    const d = await makePerson(gw, 'admin.d@x.co.uk', ['admin']);
    expect((await list(c.token)).active_admins).toBe(2);
    const [r1, r2] = await whileAdminsLocked(() => [
      revoke('admin', d.id, c.token),
      gw.app.inject({ method: 'POST', url: `/api/identity/staff/${c.id}/deactivate`, headers: bearer(d.token) }),
    ]);
    expect([r1.statusCode, r2.statusCode].sort(), `${r1.body} ${r2.body}`).toEqual([200, 409]);
    const refused = r1.statusCode === 409 ? r1 : r2;
    expect(refused.json().error.message).toBe(MESSAGES.lastAdminRefused);
    const { rows } = await gw.kit.runtime.pool.query(
      `select count(*)::int as n from identity.user_roles where role = 'admin' and is_active and user_id = any($1)`,
      [[c.id, d.id]],
    );
    expect(rows[0].n).toBe(1);
  });
});
