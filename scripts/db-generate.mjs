// `npm run db:generate [-- --name <what>]`: drizzle-kit's migration generator in every folder with a
// drizzle.config.ts (each service, and the kit's outbox tables), one after the other. A folder whose
// schema did not change says "No schema changes" and writes nothing; one that changed gets a new file in
// its drizzle/ folder, to be committed with the schema change.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const folders = readdirSync(join(root, 'services'))
  .map((name) => join(root, 'services', name))
  .filter((dir) => existsSync(join(dir, 'drizzle.config.ts')));
let failed = 0;
for (const dir of folders) {
  process.stdout.write(`\n${dir.slice(root.length)}:\n`);
  const r = spawnSync('npx', ['drizzle-kit', 'generate', ...process.argv.slice(2)], { cwd: dir, stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
