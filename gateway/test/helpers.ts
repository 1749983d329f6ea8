import { createTestKit, type TestKit } from '@countinghouse/kit/testing';
import type { App } from '@countinghouse/kit';
import type { StripeOptions } from '@countinghouse/billing';
import { ensureInitialAdmin } from '@countinghouse/identity';
import { pino } from 'pino';
import { composeAllInOne } from '../src/compose.js';
import { cookieHeader, makePerson as makePersonVia } from '../../services/identity/test/harness.js';

export const ADMIN = { username: 'practice.admin', password: 'correct horse battery staple' };

export interface TestGateway {
  kit: TestKit;
  app: App;
  close(): Promise<void>;
}

/** The all-in-one app on a fresh real database, with one administrator (and Stripe, when a test gives its mock). */
export async function startTestGateway(o: { signInMax?: number; stripe?: StripeOptions } = {}): Promise<TestGateway> {
  const kit = await createTestKit();
  const app = await composeAllInOne({
    runtime: kit.runtime,
    signer: kit.signer,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    frontendDir: null,
    signInMax: o.signInMax ?? 1000,
    publicConfig: () => ({ demoMode: true, maintenance: false, practice: { name: 'Test Practice', phone: '0100', email: 'a@b.c' } }),
    ...(o.stripe ? { services: { billing: { stripe: o.stripe } } } : {}),
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

export { cookieHeader };

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

/** Sign up a person through the API, give them roles directly in the database, sign them in (identity's test harness does it). */
export async function makePerson(
  gw: TestGateway,
  email: string,
  roles: string[] = ['client'],
  password = 'person-password-1',
): Promise<Person> {
  return makePersonVia(gw, email, roles, password);
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}
