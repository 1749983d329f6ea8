import { assertDemoSeedAllowed, DEMO_PEOPLE, DemoSeedRefused, seedIdentityDemo } from '@countinghouse/identity';
import { IDENTITY_ROUTES, MESSAGES } from '@countinghouse/proto';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from './helpers.js';

// Issue #21: a fresh start seeded a manager with the published password "demo-password".

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
});

const signIn = (email: string, password: string) =>
  gw.app.inject({ method: 'POST', url: IDENTITY_ROUTES.login, payload: { email, password } });
const people = async () => Number((await gw.kit.runtime.pool.query('select count(*)::int as n from identity.users')).rows[0].n);

describe('demo seed', () => {
  it('refuses to run when NODE_ENV=production, and creates nobody', async () => {
    await expect(seedIdentityDemo(gw.kit.runtime.db, { nodeEnv: 'production' })).rejects.toThrow(DemoSeedRefused);
    await expect(seedIdentityDemo(gw.kit.runtime.db, { nodeEnv: 'production', password: 'Demo-Secret-Pass-1' })).rejects.toThrow(
      /NODE_ENV=production/,
    );
    expect(await people()).toBe(0);
  });

  it('refuses a DEMO_PASSWORD that is too short or common (the demo people hold staff roles)', () => {
    expect(() => assertDemoSeedAllowed({ nodeEnv: 'development', password: 'demo' })).toThrow(MESSAGES.passwordTooShort);
    expect(() => assertDemoSeedAllowed({ nodeEnv: 'development', password: 'Password1' })).toThrow(MESSAGES.commonPassword);
    expect(() => assertDemoSeedAllowed({ nodeEnv: 'development', password: 'Demo-Secret-Pass-1' })).not.toThrow();
  });

  it('without DEMO_PASSWORD, generates one, returns it once, and the old published password does not work', async () => {
    const made = await seedIdentityDemo(gw.kit.runtime.db, { nodeEnv: 'development' });
    expect(made.created).toBe(DEMO_PEOPLE.length);
    expect(made.generatedPassword).toMatch(/^[A-Za-z0-9]{20}$/);
    const manager = DEMO_PEOPLE.find((p) => p.role === 'manager')!;
    expect((await signIn(manager.email, 'demo-password')).statusCode).toBe(401);
    expect((await signIn(manager.email, made.generatedPassword!)).statusCode).toBe(200);
    // stored only as a hash
    const { rows } = await gw.kit.runtime.pool.query('select password_hash from identity.users');
    expect(JSON.stringify(rows)).not.toContain(made.generatedPassword);
    // a second run seeds nothing and shows no password
    expect(await seedIdentityDemo(gw.kit.runtime.db, { nodeEnv: 'development' })).toEqual({ created: 0 });
  });

  it('the launcher stops with a clear error when SEED_DEMO=true and NODE_ENV=production', () => {
    const entry = fileURLToPath(new URL('../src/all-in-one.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', entry], {
      env: { PATH: process.env.PATH, NODE_ENV: 'production', SEED_DEMO: 'true', DATA_DIR: '/nonexistent-never-created' },
      encoding: 'utf8',
      timeout: 50_000,
    });
    expect(run.status).toBe(78);
    expect(run.stderr).toContain('SEED_DEMO=true is refused when NODE_ENV=production');
  }, 60_000);
});
