import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ADMIN, BenchContext, bearer, gatewaySrc, signIn, type Scope } from './context.js';

/**
 * The whole product in one process (the all-in-one gateway with every plugin) on a seeded database, for the
 * sections that measure a list at scale (crm, deadlines, identity verification, jobs): started, signed in as
 * the bench administrator, with the bearer headers to call it with.
 */
export async function startScaleServer(ctx: BenchContext, scope: Scope, o: { name: string; databaseUrl: string }) {
  const server = await scope.spawn({
    name: o.name,
    script: 'bench/servers/in-process.ts',
    // Every plugin's migrations and tsx's first compile: over 90 s on two loaded cores.
    readyTimeoutMs: 240_000,
    env: {
      BENCH_MODE: 'gateway',
      BENCH_COMPOSE_MODULE: pathToFileURL(join(gatewaySrc(), 'compose.ts')).href,
      DATABASE_URL: o.databaseUrl,
      JWT_PUBLIC_KEY: BenchContext.pemEnv(ctx.keys.publicKeyPem),
      JWT_PRIVATE_KEY: BenchContext.pemEnv(ctx.keys.privateKeyPem),
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      // the all-in-one app registers every plugin; integrations refuses to start in production without its key
      INTEGRATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    },
  });
  return { server, headers: bearer(await signIn(server.url)) };
}
