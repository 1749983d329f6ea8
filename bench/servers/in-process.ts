// (e) All-in-one mode, with and without the in-process gateway. Both variants build the same
// runtime (in-process bus and jobs, PostgreSQL pool of 20, as gateway/src/all-in-one.ts does), so
// the only difference measured is the gateway around the identity plugin.
//
//   BENCH_MODE=plugin   createApp + health + OpenAPI + identityPlugin under /api/identity
//                       (what startService builds in distributed mode, without Kafka and Redis)
//   BENCH_MODE=gateway  composeAllInOne: the gateway (helmet, auth context, guards, docs, UI) with
//                       the identity plugin registered in-process
import { addHealthRoutes, closeOnSignals, createApp, createLogger, createRuntime, registerOpenApi, TokenSigner } from '@countinghouse/kit';
import { ensureInitialAdmin, identityPlugin } from '@countinghouse/identity';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { composeAllInOne as ComposeAllInOne } from '../../gateway/src/compose.js';

const env = process.env;
const mode = env.BENCH_MODE;
if (mode !== 'plugin' && mode !== 'gateway') throw new Error('BENCH_MODE must be plugin or gateway');
const pem = (v: string | undefined) => (v ?? '').replace(/\\n/g, '\n');

const logger = createLogger(`bench-${mode}`, env.LOG_LEVEL ?? 'warn');
const runtime = await createRuntime({
  serviceName: `bench-${mode}`,
  databaseUrl: env.DATABASE_URL!,
  poolSize: 20,
  publicKeyPem: pem(env.JWT_PUBLIC_KEY),
  logger,
});
const signer = await TokenSigner.fromPem(pem(env.JWT_PRIVATE_KEY));

let app;
if (mode === 'plugin') {
  app = createApp({ logger, trustProxy: true });
  addHealthRoutes(app, runtime.healthChecks());
  await registerOpenApi(app, 'Countinghouse identity');
  await app.register(async (scope) => scope.register(identityPlugin, { runtime, signer, cookieSecure: false }), {
    prefix: '/api/identity',
  });
} else {
  // gateway/src/compose.ts, or a patched copy (BENCH_GATEWAY_SRC, see bench/lib/context.ts)
  const composeModule = env.BENCH_COMPOSE_MODULE ?? new URL('../../gateway/src/compose.ts', import.meta.url).href;
  const { composeAllInOne } = (await import(composeModule)) as { composeAllInOne: typeof ComposeAllInOne };
  const dist = join(fileURLToPath(new URL('../../', import.meta.url)), 'frontend', 'dist');
  app = await composeAllInOne({
    runtime,
    signer,
    logger,
    frontendDir: existsSync(dist) ? dist : null,
    signInMax: 1_000_000,
    publicConfig: () => ({ demoMode: false, maintenance: false, practice: { name: 'Bench', phone: '0', email: 'bench@example.invalid' } }),
  });
}
await ensureInitialAdmin(runtime.db, { username: env.ADMIN_USERNAME!, password: env.ADMIN_PASSWORD! });
closeOnSignals(app, () => runtime.close());
await app.listen({ host: '127.0.0.1', port: Number(env.PORT) });
