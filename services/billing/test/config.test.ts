import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { stripeOptionsFromEnv } from '../src/plugin.js';

// Stripe is both keys or neither: a half-configured Stripe stops billing at start, saying which key is
// missing, instead of failing a client's first payment.

describe('billing configuration: Stripe', () => {
  it.each([
    [{}, null],
    [{ STRIPE_SECRET_KEY: ' ', STRIPE_WEBHOOK_SECRET: '' }, null],
    [
      { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' },
      { secretKey: 'sk_test_1', webhookSecret: 'whsec_1', apiBase: undefined },
    ],
    [
      { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_API_BASE: 'http://127.0.0.1:12111' },
      { secretKey: 'sk_test_1', webhookSecret: 'whsec_1', apiBase: 'http://127.0.0.1:12111' },
    ],
  ])('%j gives %j', (env, expected) => {
    expect(stripeOptionsFromEnv(env)).toEqual(expected);
  });

  it.each([
    [{ STRIPE_SECRET_KEY: 'sk_test_1' }, 'set both or neither (STRIPE_WEBHOOK_SECRET is missing)'],
    [{ STRIPE_WEBHOOK_SECRET: 'whsec_1' }, 'set both or neither (STRIPE_SECRET_KEY is missing)'],
    [{ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_API_BASE: 'stripe.local' }, 'must be an http(s) address'],
  ])('%j is refused: %s', (env, message) => {
    expect(() => stripeOptionsFromEnv(env)).toThrow(message);
  });

  it('the billing process with one key of the two says so and exits 78, before waiting for anything', () => {
    const entry = fileURLToPath(new URL('../src/main.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', entry], {
      env: {
        PATH: process.env.PATH,
        // valid settings for servers that are not there: the check comes before any connection
        DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none',
        KAFKA_BROKERS: '127.0.0.1:9',
        REDIS_URL: 'redis://127.0.0.1:9',
        JWT_PUBLIC_KEY: 'unused',
        STRIPE_SECRET_KEY: 'sk_test_1',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.stderr).toContain(
      'billing: Invalid configuration:\n  - STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: set both or neither (STRIPE_WEBHOOK_SECRET is missing)',
    );
    expect(run.status).toBe(78);
  }, 40_000);
});
