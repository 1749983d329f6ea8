// Summarise a V8 .cpuprofile (node --cpu-prof; BENCH_CPU_PROF=gateway npm run bench -- gateway):
// self time by package and by function, so a hot spot shows without opening DevTools.
//
//   node --import tsx bench/tools/profile-summary.ts bench/results/profiles/gateway-*.cpuprofile [top]
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: profile-summary.ts FILE.cpuprofile [top]\n');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const prof = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
prof.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);

function pkgOf(url: string): string {
  if (!url) return '(native/V8)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1]!;
  if (url.startsWith('node:')) return url.split('/')[0]!;
  const r = /\/work\/[^/]+\/(services\/[^/]+|gateway|proto|bench)\//.exec(url);
  return r ? r[1]! : url.replace(/^file:\/\//, '');
}

const byPkg = new Map<string, number>();
const byFn = new Map<string, number>();
for (const [id, us] of selfUs) {
  const n = byId.get(id)!;
  const { functionName, url, lineNumber } = n.callFrame;
  const pkg =
    functionName === '(idle)' || functionName === '(program)' || functionName === '(garbage collector)' ? functionName : pkgOf(url);
  byPkg.set(pkg, (byPkg.get(pkg) ?? 0) + us);
  const key = `${functionName || '(anonymous)'}  ${pkgOf(url)}${url ? `:${lineNumber + 1}` : ''}`;
  byFn.set(key, (byFn.get(key) ?? 0) + us);
}
// inclusive: a function's own time plus everything it called (each function once per stack)
const parent = new Map<number, number>();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const keyOf = (n: Node) =>
  `${n.callFrame.functionName || '(anonymous)'}  ${pkgOf(n.callFrame.url)}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const k = keyOf(byId.get(cur)!);
    if (seen.has(k)) continue;
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + us);
  }
}
for (const k of [...inclusive.keys()]) if (/^\((idle|root|program|garbage collector)\)/.test(k)) inclusive.delete(k);

const pct = (us: number) => `${((us / totalUs) * 100).toFixed(1).padStart(5)} %`;
const print = (title: string, m: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(`${pct(us)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}\n`);
};
process.stdout.write(`${file}: ${(totalUs / 1e6).toFixed(1)} s sampled\n`);
print('Self time by package', byPkg);
print('Self time by function', byFn);
print('Inclusive time by function (self + callees)', inclusive);
