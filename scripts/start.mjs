#!/usr/bin/env node
// `npm start`: build the UI when it is missing or older than its sources, then run the all-in-one
// server (embedded PostgreSQL, every service in-process, UI and API on PORT, default 3000).
// `npm run dev`: the same server restarting on change, plus Vite's dev server with hot reload.
import './node-version.mjs'; // first: an older Node.js stops here with a sentence
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildUiIfStale } from './build-ui.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const dev = process.argv.includes('--dev');

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
const stopAll = (sig) => {
  for (const c of children) if (c.exitCode === null) c.kill(sig);
};
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => stopAll(sig));
// A SIGTERM to npm's own pid: npm exits without passing it on; stop once npm is gone (as kit's
// stopWhenNpmIsGone does for the server itself; this file runs without TypeScript).
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    stopAll('SIGTERM');
  }, 1000);
  watch.unref();
}

if (dev) {
  run(['--watch-path=gateway/src', '--watch-path=services', '--watch-path=proto/src', '--import', 'tsx', 'gateway/src/all-in-one.ts']);
  run([join(root, 'node_modules', 'vite', 'bin', 'vite.js'), '--host', '127.0.0.1'], { cwd: join(root, 'frontend') });
} else {
  buildUiIfStale(root);
  run(['--import', 'tsx', 'gateway/src/all-in-one.ts']);
}
