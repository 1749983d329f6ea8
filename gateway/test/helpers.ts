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

/** The all-in-one app on a fresh real database, with one administrator. */
export async function startTestGateway(o: { signInMax?: number } = {}): Promise<TestGateway> {
  const kit = await createTestKit();
  const app = await composeAllInOne({
    runtime: kit.runtime,
    signer: kit.signer,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    frontendDir: null,
    signInMax: o.signInMax ?? 1000,
    publicConfig: () => ({ demoMode: true, maintenance: false, practice: { name: 'Test Practice', phone: '0100', email: 'a@b.c' } }),
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
