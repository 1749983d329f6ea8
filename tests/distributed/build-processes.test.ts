import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
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

  it('current after a build; stale, naming the file, once a source it bundles changes', () => {
    expect(staleReason(repoRoot)).toBeNull();
    const source = join(repoRoot, 'services', 'kit', 'src', 'runtime.ts');
    const { atime, mtime } = statSync(source);
    try {
      utimesSync(source, atime, new Date(mtime.getTime() + 5000));
      expect(staleReason(repoRoot)).toBe('services/kit/src/runtime.ts changed');
    } finally {
      utimesSync(source, atime, mtime);
    }
    expect(staleReason(repoRoot)).toBeNull();
  });
});
