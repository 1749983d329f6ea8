import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BaseConfigSchema, ConfigError, kafkaClientOptions, MIN_NODE, nodeVersionProblem, parseConfig } from '../src/index.js';
import * as launchers from '../../../scripts/node-version.mjs';

// Issue 36: Countinghouse runs on Node.js 24 LTS, the `node` devDependency npm scripts put first on PATH
// (docs/decisions.md 240-243).

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
  allowScripts: Record<string, boolean>;
};

describe('the Node.js the project runs on', () => {
  it.each([
    ['20.20.2', false],
    ['v20.20.2', false],
    ['22.12.0', false],
    ['24.0.0', false],
    ['24.10.0', false], // 24.x before the LTS line opened
    ['24.11.0', true],
    ['v24.11.1', true],
    ['24.21.0', true],
    ['26.10.0', true],
  ])('Node.js %s: supported %s (the kit and the launchers agree)', (version, ok) => {
    const kit = nodeVersionProblem(version, '/usr/bin/node');
    const scripts = launchers.nodeVersionProblem(version, '/usr/bin/node');
    expect(kit).toBe(scripts);
    if (ok) expect(kit).toBeNull();
    else {
      expect(kit).toContain(`Countinghouse needs Node.js ${MIN_NODE} or later`);
      expect(kit).toContain(`this is Node.js v${version.replace(/^v/, '')} (/usr/bin/node)`);
      expect(kit).toContain('npx node <file>');
    }
  });

  it("package.json: engines, the pinned `node` (exact, allowed to install) and the checks' minimum agree", () => {
    expect(launchers.MIN_NODE).toBe(MIN_NODE);
    const [major, minor] = MIN_NODE.split('.');
    expect(pkg.engines.node).toBe(`>=${major}.${minor}`);
    const pinned = pkg.devDependencies.node!;
    expect(pinned, 'an exact version: every machine runs the same Node').toMatch(/^\d+\.\d+\.\d+$/);
    expect(pinned.split('.')[0]).toBe('24');
    expect(nodeVersionProblem(pinned)).toBeNull();
    expect(pkg.allowScripts.node, 'its preinstall fetches the binary').toBe(true);
  });

  it("the tests run on the project's Node.js 24 (node_modules/.bin/node), not the machine's", () => {
    expect(process.version).toBe(`v${pkg.devDependencies.node}`);
    expect(realpathSync(process.execPath)).toBe(realpathSync(join(repoRoot, 'node_modules', '.bin', 'node')));
  });

  // Started directly by an older Node.js (faked here: a module loaded first says it is 20.20.2), each
  // entry point stops at once with the sentence, before anything else loads.
  const fakeNode20 =
    "data:text/javascript,Object.defineProperty(process.versions,'node',{value:'20.20.2'});Object.defineProperty(process,'version',{value:'v20.20.2'})";
  it.each([
    ['scripts/start.mjs', []],
    ['scripts/start-distributed.ts', ['--import', 'tsx']],
    ['gateway/src/all-in-one.ts', ['--import', 'tsx']],
    ['services/crm/src/main.ts', ['--import', 'tsx']],
  ])(
    '%s, run directly by Node.js 20: exits 1 with the sentence',
    (file, loader) => {
      const r = spawnSync(process.execPath, ['--import', fakeNode20, ...loader, file], {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: 60_000,
        env: { PATH: process.env.PATH, PORT: '0', DATA_DIR: '/nonexistent/never-created' },
      });
      expect(r.stderr).toContain(`Countinghouse needs Node.js ${MIN_NODE} or later (24 LTS); this is Node.js v20.20.2`);
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
    },
    90_000,
  ); // (tsx compiles the whole module graph first: seconds on a busy machine)
});

describe("Node.js 24's OpenSSL 3.5 and Kafka's mutual TLS files", () => {
  const fixture = (name: string) => join(repoRoot, 'services', 'kit', 'test', 'fixtures', name);
  const options = (bits: number) =>
    kafkaClientOptions(
      parseConfig(BaseConfigSchema, {
        DATABASE_URL: 'postgres://unused',
        KAFKA_SSL_CERT_FILE: fixture(`rsa${bits}-cert.pem`),
        KAFKA_SSL_KEY_FILE: fixture(`rsa${bits}-key.pem`),
      }),
    );

  it('a 1024-bit RSA client key (Node 20 took it) fails at start, saying why', () => {
    expect(() => options(1024)).toThrow(ConfigError);
    expect(() => options(1024)).toThrow(
      /KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE: refused by Node\.js v24.*ERR_SSL_EE_KEY_TOO_SMALL; RSA keys need 2048 bits/,
    );
  });

  it('a 2048-bit one is passed to the Kafka client', () => {
    const o = options(2048);
    expect(o.ssl).toEqual({
      cert: readFileSync(fixture('rsa2048-cert.pem'), 'utf8'),
      key: readFileSync(fixture('rsa2048-key.pem'), 'utf8'),
    });
  });
});
