// The UI build shared by `npm start` and `npm run start:distributed`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** Build the UI when it is missing or older than its sources (exits on a failed build). */
export function buildUiIfStale(root) {
  const built = join(root, 'frontend', 'dist', 'index.html');
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  const sourcesAt = Math.max(
    newestMtime(join(root, 'frontend', 'src')),
    newestMtime(join(root, 'frontend', 'index.html')),
    newestMtime(join(root, 'frontend', 'vite.config.ts')),
    newestMtime(join(root, 'proto', 'src')),
  );
  if (builtAt >= sourcesAt) return;
  process.stdout.write('Building the web app (first start or sources changed)...\n');
  const r = spawnSync('npm', ['run', 'build', '-w', '@countinghouse/frontend'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
