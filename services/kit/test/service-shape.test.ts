import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every service has the one shape services/README.md describes (issue 17). The list of services is read
 * from the folder, so a new one is checked the day it appears; a failure names what is missing.
 */
const SERVICES_DIR = fileURLToPath(new URL('../..', import.meta.url));
const services = readdirSync(SERVICES_DIR).filter(
  (name) => name !== 'kit' && statSync(join(SERVICES_DIR, name)).isDirectory() && existsSync(join(SERVICES_DIR, name, 'package.json')),
);

/** Files and folders every service has (a folder must hold at least one .ts file, test/ one .test.ts). */
const REQUIRED_FILES = ['src/service.ts', 'src/plugin.ts', 'src/main.ts', 'src/config.ts', 'src/db/schema.ts', 'src/db/queries.ts'];
/** What src/ may hold at its top (issue 27: one layout, the same folders for the same roles). */
const ALLOWED_IN_SRC = new Set([
  'service.ts',
  'plugin.ts',
  'main.ts',
  'config.ts',
  'seed-demo.ts',
  'routes',
  'use-cases',
  'domain',
  'db',
  'consumers',
  'jobs',
  'adapters',
]);
const REQUIRED_FOLDERS = ['src/routes', 'src/use-cases', 'src/domain', 'drizzle'];

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** What a service lacks or does against the shape, one sentence each. */
export function shapeProblems(root: string): string[] {
  const problems: string[] = [];
  for (const f of REQUIRED_FILES) if (!existsSync(join(root, f))) problems.push(`missing ${f}`);
  for (const d of REQUIRED_FOLDERS) {
    const dir = join(root, d);
    const hasFiles = d === 'drizzle' ? existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.sql')) : filesUnder(dir).length > 0;
    if (!hasFiles) problems.push(`missing ${d}/ (with ${d === 'drizzle' ? 'its migrations' : 'at least one .ts file'})`);
  }
  if (!existsSync(join(root, 'test')) || !readdirSync(join(root, 'test')).some((f) => f.endsWith('.test.ts'))) {
    problems.push('missing test/ (with at least one .test.ts file)');
  }
  // (the tests' template database is built from proto's SERVICES with these: tests/services.ts)
  const schemaFile = join(root, 'src/db/schema.ts');
  if (existsSync(schemaFile) && /export const SCHEMA = '([^']*)'/.exec(readFileSync(schemaFile, 'utf8'))?.[1] !== basename(root)) {
    problems.push(`src/db/schema.ts's SCHEMA is not '${basename(root)}': a service owns the PostgreSQL schema of its name`);
  }
  const plugin = join(root, 'src/plugin.ts');
  if (
    existsSync(plugin) &&
    !readFileSync(plugin, 'utf8').includes("export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));")
  ) {
    problems.push('src/plugin.ts does not export its migrations as ../drizzle (migrationsFolder)');
  }
  const src = join(root, 'src');
  for (const entry of existsSync(src) ? readdirSync(src) : [])
    if (!ALLOWED_IN_SRC.has(entry)) problems.push(`src/${entry} is outside the layout (services/README.md names each folder's role)`);
  if (existsSync(join(src, 'main.ts')) && !/startService\(service\)/.test(readFileSync(join(src, 'main.ts'), 'utf8')))
    problems.push('src/main.ts does more than startService(service): what a process needs belongs in src/service.ts');
  for (const file of filesUnder(src)) {
    const rel = relative(root, file);
    const text = readFileSync(file, 'utf8');
    if (!rel.startsWith('src/consumers/') && /\b(bus\.subscribe|subscribe)\(\s*(runtime|\{)/.test(text)) {
      problems.push(`${rel} subscribes to events: consumers live in src/consumers/ (kit's subscribe)`);
    }
    if (rel !== 'src/config.ts' && /\bprocess\.env\b/.test(text)) {
      problems.push(`${rel} reads process.env: settings come from src/config.ts's schema, through startService (checkConfig, register)`);
    }
    if (/\brelay\.kick\(\)/.test(text)) problems.push(`${rel} kicks the relay by hand: enqueueEvent does it after commit`);
    if ((rel.startsWith('src/routes/') || rel.startsWith('src/use-cases/')) && /from 'drizzle-orm'/.test(text)) {
      problems.push(`${rel} builds queries: every query lives in src/db/queries.ts (or another src/db/ module)`);
    }
  }
  return problems;
}

/**
 * What a service may still lack, listed exactly (issue 17 emptied it: crm, documents and identity now
 * have the shape). The test fails when a listed gap is fixed and still listed as much as when anything
 * new appears, so the list can only shrink.
 */
const KNOWN_GAPS: Record<string, string[]> = {};

describe('every service has the shape of services/README.md', () => {
  it('finds the services', () => {
    expect(services).toEqual(expect.arrayContaining(['identity', 'settings', 'media', 'notifications']));
  });

  it.each(services)('%s', (name) => {
    expect(shapeProblems(join(SERVICES_DIR, name)).sort(), `services/${name} against services/README.md`).toEqual(
      [...(KNOWN_GAPS[name] ?? [])].sort(),
    );
  });

  it('names what is missing', () => {
    // the check itself can fail: the kit is not a service and lacks most of the shape
    expect(shapeProblems(join(SERVICES_DIR, 'kit'))).toEqual(
      expect.arrayContaining(['missing src/plugin.ts', 'missing src/routes/ (with at least one .ts file)']),
    );
  });
});
