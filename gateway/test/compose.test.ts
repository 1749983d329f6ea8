import { BaseConfigSchema, parseConfig } from '@countinghouse/kit';
import { Type, type TObject } from '@sinclair/typebox';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { GatewayConfigSchema, GatewayServiceUrlsSchema } from '../src/config.js';
import { parseUpstreamList } from '../src/proxy.js';
import { repoRoot } from '../../tests/processes.js';
import { PROCESSES_DIR, processEntries } from '../../scripts/build-processes.js';

// docker-compose.yml against the code: every service under services/ (except the kit) has a block whose
// environment passes that service's own config schema (services/<name>/src/config.ts) and the kit's
// distributed-mode checks, and the gateway's *_URL lists name exactly those blocks on their ports.

interface Block {
  command?: string[];
  healthcheck?: { test?: string[] };
  restart?: string;
  environment?: Record<string, string | number | boolean>;
  volumes?: string[];
  depends_on?: Record<string, unknown>;
}

const compose = parse(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Block> };
const serviceDirs = readdirSync(join(repoRoot, 'services'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'kit')
  .map((d) => d.name);

const envOf = (b: Block) => Object.fromEntries(Object.entries(b.environment ?? {}).map(([k, v]) => [k, String(v)]));
const blocksOf = (service: string) =>
  Object.entries(compose.services).filter(([, b]) => (b.command ?? []).includes(`dist/processes/${service}.mjs`));

async function schemaOf(service: string): Promise<TObject> {
  const mod = (await import(join(repoRoot, 'services', service, 'src', 'config.ts'))) as Record<string, unknown>;
  const found = Object.entries(mod).filter(([name]) => name.endsWith('ConfigSchema'));
  expect(
    found.map(([n]) => n),
    `services/${service}/src/config.ts exports one *ConfigSchema`,
  ).toHaveLength(1);
  return found[0]![1] as TObject;
}

/** Files a block reads from /secrets must be made by keygen (the volume it writes). */
const keygen = JSON.stringify(compose.services.keygen?.command ?? []);

describe('docker-compose.yml', () => {
  it('knows every service (the list is not empty and includes the replicated ones)', () => {
    expect(serviceDirs).toEqual(
      expect.arrayContaining(['identity', 'crm', 'documents', 'billing', 'integrations', 'media', 'settings', 'notifications']),
    );
  });

  it.each(serviceDirs)('%s: a block whose environment satisfies its config schema', async (service) => {
    const blocks = blocksOf(service);
    expect(blocks.length, `no block runs services/${service}/src/main.ts`).toBeGreaterThan(0);
    const schema = Type.Composite([BaseConfigSchema, await schemaOf(service)]);
    for (const [name, block] of blocks) {
      const env = envOf(block);
      const config = parseConfig(schema, env) as Record<string, unknown>;
      // what startService requires in distributed mode
      expect(config.KAFKA_BROKERS, `${name}: KAFKA_BROKERS`).toBeTruthy();
      expect(config.REDIS_URL, `${name}: REDIS_URL`).toBeTruthy();
      expect(config.JWT_PUBLIC_KEY || config.JWT_PUBLIC_KEY_FILE, `${name}: the public key`).toBeTruthy();
      expect(Number(env.PORT), `${name}: PORT`).toBeGreaterThan(0);
      // the gateway as the only door (issue 32): the public half of its signing key, never the private one
      expect(config.GATEWAY_PUBLIC_KEY || config.GATEWAY_PUBLIC_KEY_FILE, `${name}: the gateway's public key`).toBeTruthy();
      expect(JSON.stringify(block.volumes ?? []), `${name} must not mount the gateway's private key`).not.toContain('gateway-key');
      for (const [k, v] of Object.entries(env)) {
        if (k.endsWith('_FILE') && v.startsWith('/secrets/')) {
          expect(block.volumes ?? [], `${name}: ${k} needs the secrets volume`).toContain('jwt-keys:/secrets:ro');
          expect(keygen, `${name}: keygen must make ${v}`).toContain(v.replace('/secrets/', ''));
        }
      }
    }
  });

  it('documents keeps its files in the object store (all six S3_* settings) with a link secret', async () => {
    const { storageChoice } = await import('../../services/documents/src/config.js');
    const { DocumentsConfigSchema } = await import('../../services/documents/src/config.js');
    const blocks = blocksOf('documents');
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const [, block] of blocks) {
      const config = parseConfig(DocumentsConfigSchema, envOf(block));
      expect(storageChoice(config)).toHaveProperty('s3');
      expect(config.DOCUMENTS_LINK_SECRET || config.DOCUMENTS_LINK_SECRET_FILE).toBeTruthy();
      expect(new URL(config.S3_ENDPOINT).hostname).toBe('minio');
    }
    expect(compose.services.minio).toBeDefined();
  });

  it("the gateway's environment passes its schema and its *_URL lists point at every block of each service", () => {
    const gateway = compose.services.gateway!;
    const env = envOf(gateway);
    const config = parseConfig(GatewayConfigSchema, env) as Record<string, unknown>;
    parseConfig(GatewayServiceUrlsSchema, env);
    expect(config.JWT_PUBLIC_KEY || config.JWT_PUBLIC_KEY_FILE).toBeTruthy();
    // it signs what it forwards with a key from its own volume, made by keygen
    expect(env.GATEWAY_SIGNING_KEY_FILE).toBe('/gateway-secrets/gateway_private.pem');
    expect(gateway.volumes ?? []).toContain('gateway-key:/gateway-secrets:ro');
    expect(keygen).toContain('/gateway-secrets/gateway_private.pem');
    for (const service of serviceDirs) {
      const key = `${service.toUpperCase()}_URL`;
      expect(Object.keys(GatewayServiceUrlsSchema.properties), `the gateway has no ${key}`).toContain(key);
      const urls = parseUpstreamList(env[key] ?? '').map((u) => new URL(u));
      const blocks = blocksOf(service);
      expect(urls.map((u) => `${u.hostname}:${u.port}`).sort(), `${key} must list every ${service} block on its PORT`).toEqual(
        blocks.map(([name, b]) => `${name}:${envOf(b).PORT}`).sort(),
      );
      for (const [name] of blocks) expect(Object.keys(gateway.depends_on ?? {}), `gateway depends on ${name}`).toContain(name);
    }
  });

  it('crm and documents run two replicas each', () => {
    expect(blocksOf('crm')).toHaveLength(2);
    expect(blocksOf('documents')).toHaveLength(2);
  });

  // issue 20: compiled processes that compose watches and restarts
  const oneShot = (b: Block) => b.restart === 'no';
  const appBlocks = Object.entries(compose.services).filter(([, b]) => (b.command ?? [])[0] === 'node' && !oneShot(b));

  it('every service and the gateway run their compiled file (npm run build:services), never the TypeScript', () => {
    const names = processEntries(repoRoot).map((e) => e.name);
    const run = appBlocks.map(([, b]) => b.command!.join(' '));
    for (const name of names) expect(run, `a block runs ${name}`).toContain(`node ${PROCESSES_DIR}/${name}.mjs`);
    for (const [name, b] of appBlocks) {
      expect(b.command, name).toHaveLength(2);
      expect(b.command!.join(' '), name).not.toMatch(/tsx|\.ts\b/);
    }
    const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^RUN npm run build:services$/m);
    expect(dockerfile).toMatch(/^CMD \["node", "dist\/processes\/gateway.mjs"\]$/m);
  });

  it.each(Object.keys(compose.services))('%s: restarts unless stopped (one-shot jobs: never) and has a healthcheck', (name) => {
    const b = compose.services[name]!;
    if (oneShot(b)) {
      // (a one-shot restarted would run again and again: the others wait for it to complete)
      expect(b.healthcheck, name).toBeUndefined();
      return;
    }
    expect(b.restart, name).toBe('unless-stopped');
    expect(b.healthcheck?.test?.length, `${name} has no healthcheck`).toBeGreaterThan(0);
  });

  it.each(appBlocks.map(([name]) => name))('%s: its healthcheck is a node one-liner asking its own PORT for /health/ready', (name) => {
    const b = compose.services[name]!;
    const port = envOf(b).PORT;
    const test = b.healthcheck!.test!;
    expect(test.slice(0, 3)).toEqual(['CMD', 'node', '-e']);
    expect(test[3]).toContain(`fetch('http://127.0.0.1:${port}/health/ready')`);
    expect(test[3]).toContain('process.exit(r.ok ? 0 : 1)');
  });

  // issue 36: the image runs the Node.js line the project pins (package.json's `node`, Node.js 24 LTS)
  it("the image builds from a Debian slim Node.js base of the pinned `node`'s major line (24 LTS)", () => {
    const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
    const pinned = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
      .devDependencies.node!;
    const major = pinned.split('.')[0]!;
    expect(major).toBe('24');
    const from = dockerfile.match(/^FROM .*$/gm);
    expect(from, 'one stage').toHaveLength(1);
    expect(from![0]).toBe(`FROM node:${major}-bookworm-slim`);
    // (and that image is what every process runs: each block is built from ./Dockerfile)
    for (const [name, b] of appBlocks) expect((b as { build?: string }).build, name).toBe('.');
  });

  it('every depends_on names a condition (a bare key in YAML is null: compose refuses the file)', () => {
    for (const [name, b] of Object.entries(compose.services))
      for (const [dep, cond] of Object.entries(b.depends_on ?? {})) {
        expect(compose.services[dep], `${name} depends on a block ${dep}`).toBeDefined();
        expect(cond, `${name} -> ${dep}`).toMatchObject({
          condition: expect.stringMatching(/^service_(healthy|started|completed_successfully)$/),
        });
      }
  });
});
