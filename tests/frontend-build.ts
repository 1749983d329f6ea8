import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from './processes.js';

/**
 * The built UI the browser tests serve (frontend/dist), once it is there. npm test (scripts/test.sh)
 * builds it in the background while the servers start and the server suites run, and says so with
 * TEST_FRONTEND_BUILD_STATUS: the file the build's exit code is written to when it ends (its output
 * beside it, in TEST_FRONTEND_BUILD_LOG). Whatever needs the UI waits here for that file; a failed build
 * fails with its output. Without the variable (vitest run by hand) the UI must already be built.
 */
export async function builtFrontendDir(timeoutMs = 15 * 60_000): Promise<string> {
  const dir = join(repoRoot, 'frontend', 'dist');
  const status = process.env.TEST_FRONTEND_BUILD_STATUS;
  if (status) {
    const deadline = Date.now() + timeoutMs;
    while (!existsSync(status)) {
      if (Date.now() > deadline)
        throw new Error(`the frontend build (npm test's, in the background) did not end within ${timeoutMs / 1000} s`);
      await sleep(250);
    }
    const code = readFileSync(status, 'utf8').trim();
    if (code !== '0') {
      const logFile = process.env.TEST_FRONTEND_BUILD_LOG;
      const log = logFile && existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
      throw new Error(`the frontend build failed (exit ${code}):\n${log}`);
    }
  }
  if (!existsSync(join(dir, 'index.html'))) {
    throw new Error('frontend/dist is missing: run `npm run build -w @countinghouse/frontend` (npm test does it).');
  }
  return dir;
}
