#!/usr/bin/env node
// `npm start`: build the UI when it is missing or older than its sources, then run the all-in-one
// server (embedded PostgreSQL, every service in-process, UI and API on PORT, default 3000).
// `npm run dev`: the same server restarting on change, plus Vite's dev server with hot reload.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dev = process.argv.includes('--dev');

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

function buildUiIfStale() {
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

const children = [];
function run(args, opts = {}) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', ...opts });
  children.push(child);
  child.on('exit', (code, signal) => {
    for (const c of children) if (c !== child && c.exitCode === null) c.kill('SIGTERM');
    process.exitCode = code ?? (signal ? 1 : 0);
  });
  return child;
}
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    for (const c of children) if (c.exitCode === null) c.kill(sig);
  });
}

if (dev) {
  run(['--watch-path=gateway/src', '--watch-path=services', '--watch-path=proto/src', '--import', 'tsx', 'gateway/src/all-in-one.ts']);
  run([join(root, 'node_modules', 'vite', 'bin', 'vite.js'), '--host', '127.0.0.1'], { cwd: join(root, 'frontend') });
} else {
  buildUiIfStale();
  run(['--import', 'tsx', 'gateway/src/all-in-one.ts']);
}
