import { fileURLToPath } from 'node:url';
import { ensureProcessesBuilt } from '../../scripts/build-processes.js';

// (not tests/processes.ts's repoRoot: that module brings the launcher, loaded again for this project's
// set-up before the run's first file: docs/perf/tests.md, session 22)
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The distributed files start their processes compiled (tests/processes.ts `nodeArgs`): compiled here
 * once for the run when missing or stale, a few seconds (scripts/build-processes.ts).
 */
export default async function setup() {
  if (process.env.LAUNCH_WITH === 'tsx') return;
  await ensureProcessesBuilt({ root: repoRoot, log: (line) => process.stdout.write(`${line}\n`) });
}
