import { ensureProcessesBuilt } from '../../scripts/build-processes.js';
import { repoRoot } from '../processes.js';

/**
 * The distributed files start their processes compiled (tests/processes.ts `nodeArgs`): compiled here
 * once for the run when missing or stale, a few seconds (scripts/build-processes.ts).
 */
export default async function setup() {
  if (process.env.LAUNCH_WITH === 'tsx') return;
  await ensureProcessesBuilt({ root: repoRoot, log: (line) => process.stdout.write(`${line}\n`) });
}
