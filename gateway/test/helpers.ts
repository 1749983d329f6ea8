import { createTestKit, type TestKit } from '@countinghouse/kit/testing';
import type { App } from '@countinghouse/kit';
import { ensureInitialAdmin } from '@countinghouse/identity';
import { pino } from 'pino';
import { composeAllInOne } from '../src/compose.js';

export const ADMIN = { username: 'practice.admin', password: 'correct horse battery staple' };

export interface TestGateway {
  kit: TestKit;
  app: App;
  close(): Promise<void>;
}

/** The all-in-one app on a fresh real database, with one administrator (and Stripe, when a test gives its mock). */
export async function startTestGateway(
  o: { signInMax?: number; stripe?: Parameters<typeof composeAllInOne>[0]['stripe'] } = {},
): Promise<TestGateway> {
  const kit = await createTestKit();
  const app = await composeAllInOne({
    runtime: kit.runtime,
    signer: kit.signer,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    frontendDir: null,
    signInMax: o.signInMax ?? 1000,
    publicConfig: () => ({ demoMode: true, maintenance: false, practice: { name: 'Test Practice', phone: '0100', email: 'a@b.c' } }),
    ...(o.stripe ? { stripe: o.stripe } : {}),
  });
  await ensureInitialAdmin(kit.runtime.db, ADMIN);
  return {
    kit,
    app,
    async close() {
      await app.close();
      await kit.close();
    },
  };
}

export function cookieHeader(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((c) => c.split(';')[0]).join('; ');
}

export async function login(app: App, body: unknown = ADMIN) {
  return app.inject({ method: 'POST', url: '/api/identity/admin/login', payload: body as object });
}

export interface Person {
  id: string;
  email: string;
  password: string;
  token: string;
  cookie: string;
}

/** Sign up a person through the API, give them roles directly in the database, sign them in. */
export async function makePerson(
  gw: TestGateway,
  email: string,
  roles: string[] = ['client'],
  password = 'person-password-1',
): Promise<Person> {
  const su = await gw.app.inject({
    method: 'POST',
    url: '/api/identity/auth/signup',
    payload: { email, password, first_name: email.split('@')[0] },
  });
  if (su.statusCode !== 201) throw new Error(`signup failed: ${su.body}`);
  const { rows } = await gw.kit.runtime.pool.query('select id from identity.users where email = $1', [email.toLowerCase()]);
  const id = rows[0].id as string;
  for (const role of roles.filter((r) => r !== 'client')) {
    await gw.kit.runtime.pool.query(`insert into identity.user_roles (user_id, role) values ($1, $2)`, [id, role]);
    await gw.kit.runtime.pool.query(`update identity.profiles set role = $2 where user_id = $1`, [id, role]);
  }
  if (!roles.includes('client'))
    await gw.kit.runtime.pool.query(`delete from identity.user_roles where user_id = $1 and role = 'client'`, [id]);
  const li = await gw.app.inject({ method: 'POST', url: '/api/identity/auth/login', payload: { email, password } });
  if (li.statusCode !== 200) throw new Error(`login failed: ${li.body}`);
  return { id, email, password, token: li.json().access_token, cookie: cookieHeader(li.headers['set-cookie']) };
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}
