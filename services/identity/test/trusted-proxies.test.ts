import { BaseConfigSchema, createApp, parseConfig, trustedProxies, type App } from '@countinghouse/kit';
import { createTestKit, type TestKit } from '@countinghouse/kit/testing';
import { ADMIN_AUTH_ROUTES } from '@countinghouse/proto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_RULE } from '../src/domain/throttle.js';
import { identityPlugin } from '../src/plugin.js';

// Identity's sign-in throttle counts by the client's address (domain/throttle.ts). In distributed mode
// a service believes X-Forwarded-For only from TRUSTED_PROXIES (the gateways, startService): a request
// straight to identity that claims other addresses is still counted, and limited, by its real one.

const GATEWAY = '10.0.0.5';
const STRANGER = '198.51.100.7';

let kit: TestKit;
let app: App;

beforeAll(async () => {
  kit = await createTestKit();
  // what startService builds from TRUSTED_PROXIES=10.0.0.5
  const config = parseConfig(BaseConfigSchema, { DATABASE_URL: kit.db.url, TRUSTED_PROXIES: GATEWAY });
  app = createApp({ logger: pino({ level: 'silent' }), trustProxy: trustedProxies(config.TRUSTED_PROXIES) });
  await app.register(async (scope) => scope.register(identityPlugin, { runtime: kit.runtime, signer: kit.signer, cookieSecure: false }), {
    prefix: '/api/identity',
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await kit?.close();
});

/** A wrong admin sign-in (an unknown name each time, so only the address's count can refuse it). */
function wrongSignIn(n: number, remoteAddress: string, claimed: string) {
  return app.inject({
    method: 'POST',
    url: ADMIN_AUTH_ROUTES.login,
    remoteAddress,
    headers: { 'x-forwarded-for': claimed },
    payload: { username: `nobody.${remoteAddress}.${n}`, password: 'not the password' },
  });
}

async function addressFailures(address: string): Promise<number> {
  const { rows } = await kit.runtime.pool.query<{ failures: number }>(
    `select failures from identity.sign_in_throttle where scope = 'address' and key = $1`,
    [address],
  );
  return rows[0]?.failures ?? 0;
}

// (some 70 sign-ins, each an argon2 check: more than the project's 20 s on a busy machine)
describe('TRUSTED_PROXIES', { timeout: 90_000 }, () => {
  it('defaults to the loopback addresses (the gateway on the same host in development)', () => {
    expect(trustedProxies(parseConfig(BaseConfigSchema, { DATABASE_URL: 'postgres://x' }).TRUSTED_PROXIES)).toEqual(['127.0.0.1', '::1']);
    expect(trustedProxies(' 10.0.0.0/8 , fd00::/8 ')).toEqual(['10.0.0.0/8', 'fd00::/8']);
    expect(trustedProxies('')).toBe(false);
    expect(() => parseConfig(BaseConfigSchema, { DATABASE_URL: 'postgres://x', TRUSTED_PROXIES: 'everyone' })).toThrow(/TRUSTED_PROXIES/);
  });

  it('a request straight to identity claiming other addresses is limited by its real address', async () => {
    const limit = ADDRESS_RULE.limit;
    const codes: number[] = [];
    // a different claimed client address every time
    for (let i = 1; i <= limit + 2; i++) codes.push((await wrongSignIn(i, STRANGER, `203.0.113.${i}`)).statusCode);
    expect(codes.slice(0, limit - 1).every((c) => c === 401)).toBe(true);
    expect(codes.slice(limit)).toEqual([429, 429]);
    expect(await addressFailures(STRANGER)).toBe(limit + 2);
    for (let i = 1; i <= limit + 2; i++) expect(await addressFailures(`203.0.113.${i}`)).toBe(0);
  });

  it('through a trusted gateway address, each forwarded client is counted on its own', async () => {
    const limit = ADDRESS_RULE.limit;
    const codes: number[] = [];
    for (let i = 1; i <= limit + 2; i++) codes.push((await wrongSignIn(i, GATEWAY, `192.0.2.${i}`)).statusCode);
    expect(codes.every((c) => c === 401)).toBe(true);
    expect(await addressFailures(GATEWAY)).toBe(0);
    for (let i = 1; i <= limit + 2; i++) expect(await addressFailures(`192.0.2.${i}`)).toBe(1);
    // and one forwarded client's own guesses still reach its limit
    for (let i = 0; i < limit; i++) await wrongSignIn(100 + i, GATEWAY, '192.0.2.200');
    expect((await wrongSignIn(200, GATEWAY, '192.0.2.200')).statusCode).toBe(429);
  });
});
