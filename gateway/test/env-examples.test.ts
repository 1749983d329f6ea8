import { BaseConfigSchema } from '@countinghouse/kit';
import type { TObject } from '@sinclair/typebox';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GatewayConfigSchema, GatewayServiceUrlsSchema } from '../src/config.js';
import { repoRoot } from '../../tests/processes.js';

// One env file per process (gateway/.env.example, services/<name>/.env.example) against the code: each
// lists exactly the variables its process's config schemas read (the gateway's GatewayConfigSchema; a
// service's the kit's BaseConfigSchema plus its own services/<name>/src/config.ts), each with its format
// and whether it is required. Regenerate with `npx tsx scripts/env-examples.ts`.

const serviceDirs = readdirSync(join(repoRoot, 'services'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'kit')
  .map((d) => d.name);

async function serviceSchema(service: string): Promise<TObject> {
  const mod = (await import(join(repoRoot, 'services', service, 'src', 'config.ts'))) as Record<string, unknown>;
  const found = Object.entries(mod).filter(([k]) => /ConfigSchema$/.test(k));
  expect(found, `services/${service}/src/config.ts exports one *ConfigSchema`).toHaveLength(1);
  return found[0]![1] as TObject;
}

/** The variables an .env.example lists: `NAME=` (required) or `# NAME=default` (optional). */
function listed(text: string): Array<{ name: string; required: boolean; notes: string[] }> {
  const out: Array<{ name: string; required: boolean; notes: string[] }> = [];
  let notes: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^(# )?([A-Z][A-Z0-9_]*)=/.exec(line);
    if (m) {
      out.push({ name: m[2]!, required: !m[1], notes });
      notes = [];
    } else if (line.startsWith('#   ')) notes.push(line.slice(4));
    else if (line.trim() === '') notes = [];
  }
  return out;
}

const processes = async () => [
  { name: 'gateway', file: 'gateway/.env.example', schemas: [GatewayConfigSchema, GatewayServiceUrlsSchema] as TObject[] },
  ...(await Promise.all(
    serviceDirs.map(async (s) => ({ name: s, file: `services/${s}/.env.example`, schemas: [BaseConfigSchema, await serviceSchema(s)] })),
  )),
];

describe('.env.example per process', () => {
  it('every process has one, listing every variable it reads and none it does not', async () => {
    for (const p of await processes()) {
      expect(existsSync(join(repoRoot, p.file)), `${p.file} is missing`).toBe(true);
      const names = listed(readFileSync(join(repoRoot, p.file), 'utf8')).map((v) => v.name);
      const read = [...new Set(p.schemas.flatMap((s) => Object.keys(s.properties)))];
      expect(
        read.filter((k) => !names.includes(k)),
        `${p.file} lacks variables ${p.name} reads`,
      ).toEqual([]);
      expect(
        names.filter((k) => !read.includes(k)),
        `${p.file} lists variables ${p.name} does not read`,
      ).toEqual([]);
      expect(new Set(names).size, `${p.file} lists a variable twice`).toBe(names.length);
    }
  });

  it('each variable says what it is, its format, and is required exactly when it has no default (or distributed mode needs it)', async () => {
    for (const p of await processes()) {
      const props: Record<string, { default?: unknown }> = Object.assign({}, ...p.schemas.map((s) => s.properties));
      for (const v of listed(readFileSync(join(repoRoot, p.file), 'utf8'))) {
        const where = `${p.file}: ${v.name}`;
        expect(v.notes.length, `${where} has no description`).toBeGreaterThanOrEqual(2);
        expect(
          v.notes.some((n) => n.startsWith('format: ')),
          `${where} has no format`,
        ).toBe(true);
        const needed = props[v.name]!.default === undefined || (p.name !== 'gateway' && ['KAFKA_BROKERS', 'REDIS_URL'].includes(v.name));
        expect(v.required, `${where} required?`).toBe(needed);
      }
    }
  });

  it('the README points to them', () => {
    expect(readFileSync(join(repoRoot, 'README.md'), 'utf8')).toMatch(/\.env\.example/);
  });
});
