import { createApp, type App, type Principal } from '@countinghouse/kit';
import { createTestKit, type TestKit } from '@countinghouse/kit/testing';
import type { Role } from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { ensureInitialAdmin, identityPlugin } from '../src/plugin.js';

/**
 * Identity alone (issue 17, item 6): its plugin mounted at /api/identity on the kit's app, on a fresh
 * real database, with one administrator. No gateway and no other service: flows across services stay
 * in gateway/test.
 */
export interface IdentityHarness {
  kit: TestKit;
  app: App;
  close(): Promise<void>;
}

export const ADMIN = { username: 'identity.admin', password: 'correct horse battery staple' };

export async function startIdentity(): Promise<IdentityHarness> {
  const kit = await createTestKit();
  const app = createApp({ logger: kit.runtime.logger, pluginTimeout: 60_000 });
  await app.register(async (scope) => scope.register(identityPlugin, { runtime: kit.runtime, signer: kit.signer, cookieSecure: false }), {
    prefix: '/api/identity',
  });
  await app.ready();
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

/**
 * An access token minted with the kit's signer, as identity would issue it: for checking who may call
 * a route that reads no session (a route that does, /auth/me for one, needs a real sign-in).
 */
export async function tokenFor(h: IdentityHarness, who: { roles: Role[]; kind?: Principal['kind']; id?: string }): Promise<string> {
  const signed = await h.kit.signer.sign({
    sub: who.id ?? randomUUID(),
    sid: randomUUID(),
    knd: who.kind ?? 'user',
    roles: who.roles,
    name: 'Test Caller',
  });
  return signed.token;
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

/** The name=value pairs of Set-Cookie headers, as a browser sends them back. */
export function cookieHeader(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((c) => c.split(';')[0]).join('; ');
}

/**
 * Sign up a person through the API, give them roles directly in the database, sign them in. Takes any
 * app that serves identity under /api/identity with its test kit: this harness, or the whole gateway
 * (gateway/test/helpers.ts uses it too).
 */
export async function makePerson(
  h: { app: App; kit: TestKit },
  email: string,
  roles: readonly string[] = ['client'],
  password = 'person-password-1',
): Promise<{ id: string; email: string; password: string; token: string; cookie: string }> {
  const su = await h.app.inject({
    method: 'POST',
    url: '/api/identity/auth/signup',
    payload: { email, password, first_name: email.split('@')[0] },
  });
  if (su.statusCode !== 201) throw new Error(`signup failed: ${su.body}`);
  const { rows } = await h.kit.runtime.pool.query<{ id: string }>('select id from identity.users where email = $1', [email.toLowerCase()]);
  const id = rows[0]!.id;
  for (const role of roles.filter((r) => r !== 'client')) {
    await h.kit.runtime.pool.query(`insert into identity.user_roles (user_id, role) values ($1, $2)`, [id, role]);
    await h.kit.runtime.pool.query(`update identity.profiles set role = $2 where user_id = $1`, [id, role]);
  }
  if (!roles.includes('client'))
    await h.kit.runtime.pool.query(`delete from identity.user_roles where user_id = $1 and role = 'client'`, [id]);
  const li = await h.app.inject({ method: 'POST', url: '/api/identity/auth/login', payload: { email, password } });
  if (li.statusCode !== 200) throw new Error(`login failed: ${li.body}`);
  return { id, email, password, token: String(li.json().access_token), cookie: cookieHeader(li.headers['set-cookie']) };
}
