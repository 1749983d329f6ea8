import { linkedClientUserIds, seedCrmDemo } from '@countinghouse/crm';
import { DEMO_PEOPLE, demoSignInPage, demoSignIns, formatDemoSignIns, seedIdentityDemo } from '@countinghouse/identity';
import { IDENTITY_ROUTES } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './helpers.js';

// Issue 33: the terminal at `npm start` printed every demo person, without where to sign in, including
// clients linked to no business. An accountant signs in at /login (issue 26).
const PASSWORD = 'Demo-Sign-Ins-Pass-4';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
  await seedIdentityDemo(gw.kit.runtime.db, { nodeEnv: 'test', password: PASSWORD });
  await seedCrmDemo(gw.kit.runtime.db);
}, 60_000);
afterAll(async () => gw?.close());

describe('demo sign-ins printed at start', () => {
  it('names the sign-in page of each role: staff portal for staff, /login for clients and accountants', () => {
    expect(demoSignInPage('manager')).toBe('/staff/login');
    expect(demoSignInPage('staff')).toBe('/staff/login');
    expect(demoSignInPage('admin')).toBe('/staff/login');
    expect(demoSignInPage('client')).toBe('/login');
    expect(demoSignInPage('accountant')).toBe('/login');
  });

  it('lists only people who can use the product: no client linked to no business', async () => {
    const list = await demoSignIns(gw.kit.runtime.db, await linkedClientUserIds(gw.kit.runtime.db));
    expect([...new Set(list.map((p) => p.role))].sort()).toEqual(['accountant', 'manager', 'staff']);
    for (const p of list) expect(p.page).toBe(p.role === 'accountant' ? '/login' : '/staff/login');
    const text = formatDemoSignIns(list, 'http://localhost:3000');
    for (const p of list)
      expect(text).toMatch(new RegExp(`${p.role}\\s+${p.email.replace(/\./g, '\\.')}\\s+sign in at http://localhost:3000${p.page}`));
    for (const p of DEMO_PEOPLE.filter((x) => x.role === 'client')) expect(text).not.toContain(p.email);
  });

  it('lists a demo client once a client record names them, at /login', async () => {
    const client = DEMO_PEOPLE.find((p) => p.role === 'client')!;
    const { rows } = await gw.kit.runtime.pool.query('select id from identity.users where email = $1', [client.email]);
    await gw.kit.runtime.pool.query(
      'update crm.clients set user_id = $1 where id = (select id from crm.clients where user_id is null order by company_name limit 1)',
      [rows[0].id],
    );
    const list = await demoSignIns(gw.kit.runtime.db, await linkedClientUserIds(gw.kit.runtime.db));
    expect(list.filter((p) => p.role === 'client')).toEqual([{ role: 'client', email: client.email, page: '/login' }]);
  });

  it('each listed person really signs in with the demo password', async () => {
    const list = await demoSignIns(gw.kit.runtime.db, await linkedClientUserIds(gw.kit.runtime.db));
    expect(list.length).toBeGreaterThan(0);
    for (const p of list) {
      const r = await gw.app.inject({ method: 'POST', url: IDENTITY_ROUTES.login, payload: { email: p.email, password: PASSWORD } });
      expect(r.statusCode, `${p.email}: ${r.body}`).toBe(200);
    }
  });
});
