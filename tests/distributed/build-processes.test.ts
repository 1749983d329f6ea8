import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProcesses, PROCESSES_DIR, processEntries, staleReason } from '../../scripts/build-processes.js';
import { SERVICE_TABLE, GATEWAY_ENTRY } from '../../scripts/distributed.js';
import { repoRoot } from '../processes.js';

// `npm run build:services` (scripts/build-processes.ts): each process compiled to plain JavaScript in
// dist/processes/, run with `node` alone, rebuilt by the launcher when a source file changes.

let files: Map<string, string>;

beforeAll(async () => {
  files = await buildProcesses(repoRoot);
}, 120_000);

describe('the compiled processes', () => {
  it('one file per process the launcher starts: every service of SERVICE_TABLE and the gateway', () => {
    for (const entry of [...SERVICE_TABLE.map((s) => s.entry), GATEWAY_ENTRY]) {
      const file = files.get(entry);
      expect(file, entry).toBeDefined();
      expect(existsSync(file!), file).toBe(true);
      expect(file!.startsWith(join(repoRoot, PROCESSES_DIR))).toBe(true);
    }
    expect(processEntries(repoRoot).map((e) => e.name)).toEqual(expect.arrayContaining(['crm', 'documents', 'gateway']));
  });

  it('run with node alone (no TypeScript loader): a service checks its configuration and exits 78 without one', () => {
    const file = files.get('services/crm/src/main.ts')!;
    expect(readFileSync(file, 'utf8')).not.toMatch(/from ['"]tsx/);
    const r = spawnSync(process.execPath, [file], { cwd: '/', env: { PATH: process.env.PATH }, encoding: 'utf8', timeout: 30_000 });
    expect(r.stderr).toContain('crm: Invalid configuration');
    expect(r.status).toBe(78);
    const gw = spawnSync(process.execPath, [files.get(GATEWAY_ENTRY)!], {
      cwd: '/',
      env: { PATH: process.env.PATH },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(gw.stderr).toContain('gateway: Invalid configuration');
    expect(gw.status).toBe(78);
  });

  it('current after a build; stale, naming the file, once a source it bundles changes', async () => {
    // A tree of its own: the real one's sources are not touched (the launchers of the tests running
    // alongside rebuild the real tree when they see a changed source, and would record the changed time).
    const root = mkdtempSync(join(tmpdir(), 'build-processes-'));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
      };
      write('services/kit/src/runtime.ts', 'export const started = (name: string): string => `${name} started`;\n');
      write('services/alpha/src/main.ts', "import { started } from '../../kit/src/runtime.js';\nconsole.log(started('alpha'));\n");
      write('gateway/src/main.ts', "import { started } from '../../services/kit/src/runtime.js';\nconsole.log(started('gateway'));\n");
      // Whole seconds: a time set through utimes as a fraction of a second can come back a millisecond
      // short (a float's rounding), which the manifest's whole milliseconds would call a change.
      const source = join(root, 'services', 'kit', 'src', 'runtime.ts');
      const at = 1_790_000_000;
      utimesSync(source, at, at);
      expect(staleReason(root)).toBe('not built yet');
      const built = await buildProcesses(root);
      expect([...built.keys()].sort()).toEqual(['gateway/src/main.ts', 'services/alpha/src/main.ts']);
      expect(spawnSync(process.execPath, [built.get('services/alpha/src/main.ts')!], { encoding: 'utf8' }).stdout).toBe('alpha started\n');
      expect(staleReason(root)).toBeNull();

      utimesSync(source, at, at + 5);
      expect(staleReason(root)).toBe('services/kit/src/runtime.ts changed');
      utimesSync(source, at, at);
      expect(staleReason(root)).toBeNull();

      write('services/beta/src/main.ts', "console.log('beta');\n");
      expect(staleReason(root)).toBe('the list of processes changed');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
