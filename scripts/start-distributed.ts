// `npm run start:distributed`: the whole distributed product on this machine, in the foreground.
// PostgreSQL, Redis, Kafka and MinIO (infra/, state in DATA_DIR/infra), every service as its own process
// (crm and documents REPLICAS times, default 2), the gateway serving the UI on PORT (default 3000).
// Ctrl-C or SIGTERM (to this process, or to npm's) stops everything it started. A second start on the same DATA_DIR reuses the data.
// Env: PORT, DATA_DIR (.data-distributed), ADMIN_USERNAME, ADMIN_PASSWORD, SEED_DEMO, REPLICAS, LOG_LEVEL,
// and any service's own settings (e.g. STRIPE_SECRET_KEY, SMTP_URL), passed to the service that reads it.
import './node-version.mjs'; // first: an older Node.js stops here with a sentence
import { stopWhenNpmIsGone } from '@countinghouse/kit';
import { buildUiIfStale } from './build-ui.mjs';
import { DEMO_PEOPLE, repoRoot, StartCancelled, startDistributed, type Distributed } from './distributed.js';

const say = (line: string) => process.stdout.write(`${line}\n`);
// every process below is spawned with this same runtime (process.execPath): the project's Node.js 24
say(`[distributed] Node.js ${process.version} (${process.execPath})`);
buildUiIfStale(repoRoot);

let product: Distributed | null = null;
let stopping = false;
// A Ctrl-C during the start cancels it: startDistributed stops what it had started (servers and
// infrastructure) before it rejects, and only then does this process exit (below).
const starting = new AbortController();
const onSignal = (sig: string) => {
  if (stopping) return;
  stopping = true;
  say(`\n${sig}: stopping every process…`);
  if (!product) {
    starting.abort();
    return;
  }
  void product.stop().then(
    () => {
      say('stopped.');
      process.exit(0);
    },
    (err: unknown) => {
      process.stderr.write(`stop failed: ${(err as Error).message}\n`);
      process.exit(1);
    },
  );
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);
// `kill <npm's pid>`: npm exits without passing SIGTERM on; stop all the same (kit's stopWhenNpmIsGone)
stopWhenNpmIsGone(() => onSignal('npm exited'));

try {
  product = await startDistributed({ env: process.env, log: (l) => say(`[distributed] ${l}`), signal: starting.signal });
} catch (err) {
  if (err instanceof StartCancelled) {
    if ((err as Error).message.includes('\n')) say((err as Error).message.split('\n').slice(1).join('\n'));
    say('stopped.');
    process.exit(0);
  }
  process.stderr.write(`\nCountinghouse (distributed) did not start: ${(err as Error).message}\n`);
  process.exit(1);
}
if (stopping) {
  // (the signal came after the last wait of the start: stop what it started all the same)
  await product.stop();
  say('stopped.');
  process.exit(0);
}

const list = product.processes();
say('');
say(`  Countinghouse (distributed) is running: ${product.baseUrl}`);
say(
  `  ${list.filter((p) => p.kind === 'service').length} service processes, the gateway, and ${list
    .filter((p) => p.kind === 'infra')
    .map((p) => p.name)
    .join(', ')}`,
);
say(`  Processes: ${product.dataDir}/processes.json   Logs: ${product.dataDir}/logs/`);
say(`  Node.js ${process.version} for every process (${process.execPath})`);
if (product.generatedAdminPassword) {
  say('');
  say('  First administrator created.');
  say(`  Username: ${process.env.ADMIN_USERNAME || 'admin'}`);
  say(`  Password: ${product.generatedAdminPassword}`);
  say('  (shown once; set ADMIN_PASSWORD on a fresh data folder to choose it)');
}
if (product.demoPeople > 0) {
  say('');
  say(
    product.demoPassword
      ? `  Demo practice: ${product.demoPeople} people, password "${product.demoPassword}" for all of them (shown once; set DEMO_PASSWORD on a fresh data folder to choose it):`
      : `  Demo practice: ${product.demoPeople} people, with the password DEMO_PASSWORD sets:`,
  );
  for (const p of DEMO_PEOPLE) say(`    ${p.role.padEnd(10)} ${p.email}`);
}
say('');
say('  Ctrl-C stops everything.');
