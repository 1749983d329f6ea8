import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as netServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/**
 * Stoplight Prism (npm @stoplight/prism-cli, 5.14.x runs on Node 20) serving a provider's own OpenAPI
 * file: it answers the documented examples and refuses requests the file does not allow (422 for a
 * bad body or parameter, 401 without the documented security, 404 for a path the file lacks), so our
 * clients are checked against the provider's description rather than our own assumptions.
 */
export interface PrismServer {
  url: string;
  stop(): Promise<void>;
}

const PRISM_BIN = fileURLToPath(new URL('../../../node_modules/.bin/prism', import.meta.url));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = netServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Start Prism in static mode (the files' examples, deterministic) on a free loopback port. */
export async function startPrism(specFile: string, timeoutMs = 240_000): Promise<PrismServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(PRISM_BIN, ['mock', '-h', '127.0.0.1', '-p', String(port), specFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start within ${timeoutMs / 1000} s: ${output.slice(-500)}`)), timeoutMs);
    const onData = (b: Buffer) => {
      output += String(b);
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited (${code}): ${output.slice(-500)}`));
    });
  });
  try {
    await ready;
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  // Prism logs every request; keep only the tail so a long run does not grow memory.
  child.stdout?.removeAllListeners('data');
  child.stderr?.removeAllListeners('data');
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * A provider's OpenAPI file cut down to the paths a test needs and every component they reference
 * (followed through nested $refs), written as JSON. The providers' files are large (Xero's accounting
 * file 0.9 MB, OpenAI's 3 MB): Prism takes one to two minutes of both cores to load a whole one, a
 * few seconds for the cut. What is kept is the provider's text, unchanged.
 */
export function cutSpec(specFile: string, paths: string[], outFile: string, fix?: (spec: Record<string, unknown>) => void): string {
  const spec = parse(readFileSync(specFile, 'utf8'), { maxAliasCount: -1 }) as Record<string, unknown> & {
    paths: Record<string, unknown>;
    components?: Record<string, Record<string, unknown>>;
  };
  const kept: Record<string, unknown> = {};
  for (const p of paths) {
    if (!spec.paths[p]) throw new Error(`${specFile} has no path ${p}`);
    kept[p] = spec.paths[p];
  }
  const components: Record<string, Record<string, unknown>> = {};
  const seen = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/') && !seen.has(v)) {
        seen.add(v);
        const [, , section, name] = v.split('/') as [string, string, string, string];
        const target = spec.components?.[section]?.[name];
        if (target === undefined) throw new Error(`${specFile}: ${v} does not resolve`);
        (components[section] ??= {})[name] = target;
        walk(target);
      } else walk(v);
    }
  };
  walk(kept);
  // Security schemes are named, not $ref'd.
  if (spec.components?.securitySchemes) components.securitySchemes = spec.components.securitySchemes;
  // Only what describes the kept paths (OpenAI's file also has webhooks referring to other schemas).
  const { openapi, swagger, info, servers, security, tags } = spec as Record<string, unknown>;
  const cut: Record<string, unknown> = { openapi, swagger, info, servers, security, tags, paths: kept, components };
  fix?.(cut);
  writeFileSync(outFile, JSON.stringify(cut));
  return outFile;
}
