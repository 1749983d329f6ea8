// The all-in-one app (composeAllInOne, in-process bus and jobs, pool 20) with the documents plugin
// storing under DOCUMENTS_STORAGE_DIR: the server of the documents bench section.
import { closeOnSignals, createLogger, createRuntime, TokenSigner } from '@countinghouse/kit';
import { ensureInitialAdmin } from '@countinghouse/identity';
import { composeAllInOne } from '../../gateway/src/compose.js';

const env = process.env;
const pem = (v: string | undefined) => (v ?? '').replace(/\\n/g, '\n');
const logger = createLogger('bench-documents', env.LOG_LEVEL ?? 'warn');
const runtime = await createRuntime({
  serviceName: 'bench-documents',
  databaseUrl: env.DATABASE_URL!,
  poolSize: 20,
  publicKeyPem: pem(env.JWT_PUBLIC_KEY),
  logger,
});
const signer = await TokenSigner.fromPem(pem(env.JWT_PRIVATE_KEY));
const app = await composeAllInOne({
  runtime,
  signer,
  logger,
  frontendDir: null,
  signInMax: 1_000_000,
  // the documents' folder and link secret, read from the environment as the service's own process does
  env: { DOCUMENTS_STORAGE_DIR: env.DOCUMENTS_STORAGE_DIR, DOCUMENTS_LINK_SECRET: env.DOCUMENTS_LINK_SECRET },
  publicConfig: () => ({ demoMode: false, maintenance: false, practice: { name: 'Bench', phone: '0', email: 'bench@example.invalid' } }),
});
await ensureInitialAdmin(runtime.db, { username: env.ADMIN_USERNAME!, password: env.ADMIN_PASSWORD! });
closeOnSignals(app, () => runtime.close());
await app.listen({ host: '127.0.0.1', port: Number(env.PORT) });
