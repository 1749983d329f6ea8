import type { LoadResult } from './load.js';
import { formatAim, formatValue, problems, verdict, type SectionReport } from './report.js';

export type Align = 'l' | 'r';

/** A plain-text table: header, rule, rows; columns padded to their widest cell. */
export function renderTable(headers: string[], rows: string[][], align: Align[] = []): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => ((align[i] ?? 'l') === 'r' ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [fmt(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

const int = (v: number) => Math.round(v).toLocaleString('en-GB');
const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : 'n/a');

function loadLabel(r: LoadResult): string {
  return r.targetRate ? `${r.targetRate}/s ${r.generator === 'paced' ? 'paced' : 'autocannon'}` : `max, ${r.connections} conn`;
}

export function renderSection(s: SectionReport): string {
  const out: string[] = [];
  out.push(`== ${s.title} [${s.name}] (${s.seconds.toFixed(0)} s)`);
  if (s.rows.length) {
    const multi = s.rows.some((r) => r.rounds);
    out.push(
      renderTable(
        ['', 'target', 'load', 'req/s', ...(multi ? ['rounds req/s'] : []), 'p50 ms', 'p90 ms', 'p99 ms', 'requests', 'problems'],
        s.rows.map((r) => [
          `(${r.key})`,
          r.label,
          loadLabel(r.result),
          int(r.result.rps),
          ...(multi ? [r.rounds ? r.rounds.map((x) => int(x.rps)).join(' / ') : ''] : []),
          ms(r.result.latency.p50),
          ms(r.result.latency.p90),
          ms(r.result.latency.p99),
          int(r.result.ok),
          problems(r.result) ?? '',
        ]),
        ['l', 'l', 'l', 'r', ...(multi ? ['r' as const] : []), 'r', 'r', 'r', 'r', 'l'],
      ),
    );
    if (multi) out.push('(req/s, latencies and CPU of the best round; all rounds are in the JSON)');
  }
  const cpuRows = s.rows.filter((r) => r.result.cpu && r.result.ok > 0);
  if (cpuRows.length) {
    // groups that did measurable work in this section, in their probe order
    const names: string[] = [];
    for (const r of cpuRows)
      for (const [g, sec] of Object.entries(r.result.cpu!.groups)) if (sec >= 0.05 && !names.includes(g)) names.push(g);
    out.push('');
    out.push('CPU time per request, microseconds (from /proc; "others" = processes not started by the bench, % of all cores):');
    out.push(
      renderTable(
        ['', ...names, 'total', 'others', 'machine busy'],
        cpuRows.map((r) => {
          const cpu = r.result.cpu!;
          const per = (sec: number) => Math.round((sec * 1e6) / r.result.ok).toString();
          const total = names.reduce((a, g) => a + (cpu.groups[g] ?? 0), 0);
          return [
            `(${r.key})`,
            ...names.map((g) => per(cpu.groups[g] ?? 0)),
            per(total),
            `${cpu.othersPct.toFixed(0)} %`,
            `${cpu.machinePct.toFixed(0)} %`,
          ];
        }),
        ['l', ...names.map(() => 'r' as const), 'r', 'r', 'r'],
      ),
    );
  }
  if (s.checks.length) {
    out.push('');
    out.push(
      renderTable(
        ['figure', 'value', 'aim', 'verdict'],
        s.checks.map((c) => [c.label, formatValue(c.value, c.unit), formatAim(c), verdict(c)]),
        ['l', 'r', 'l', 'l'],
      ),
    );
    for (const c of s.checks) if (c.invalid) out.push(`  ! ${c.label}: ${c.invalid}`);
  }
  for (const n of s.notes) out.push(`  * ${n}`);
  if (s.error) out.push(`  ! section failed: ${s.error}`);
  return out.join('\n');
}
