import type { LoadResult } from './load.js';

/** One line of a section's table: one target under one load. */
export interface Row {
  /** Short id used in comparisons and the JSON, e.g. "b". */
  key: string;
  label: string;
  /** The run shown (for interleaved comparisons, the best round). */
  result: LoadResult;
  /** Every round of an interleaved comparison. */
  rounds?: LoadResult[];
}

/** 'score': a 0 to 100 score (Lighthouse); 'kB': kilobytes (1,024 bytes). */
/** 'ms' a latency; 'ms-added' a difference of two latencies (shown with its sign). */
/** 'it/s': iterations of a k6 mix a second. */
export type Unit = 'ratio' | 'ms' | 'ms-added' | 'pct' | 'us' | 'score' | 'kB' | 'it/s';

/** A derived figure (ratio, difference), optionally held against an aim. */
export interface Check {
  label: string;
  value: number;
  unit: Unit;
  /** e.g. { op: '>=', target: 0.8 } for "(c)/(d) >= 0.8" */
  aim?: { op: '>=' | '<=' | '<' | '>'; target: number };
  /** Set by evaluate(); false also when a figure it depends on is invalid. */
  met?: boolean;
  /** Why the figure cannot be trusted (a measurement had errors), if so. */
  invalid?: string;
}

export interface SectionReport {
  name: string;
  title: string;
  rows: Row[];
  checks: Check[];
  notes: string[];
  error?: string;
  seconds: number;
}

/** A measurement is usable when every request got a 2xx answer. */
export function problems(r: LoadResult): string | undefined {
  const bad: string[] = [];
  if (r.non2xx > 0)
    bad.push(
      `${r.non2xx} non-2xx (${Object.entries(r.statusCodes)
        .filter(([c]) => !c.startsWith('2'))
        .map(([c, n]) => `${c}x${n}`)
        .join(', ')})`,
    );
  if (r.errors > 0) bad.push(`${r.errors} errors`);
  if (r.timeouts > 0) bad.push(`${r.timeouts} timeouts`);
  if (r.ok === 0) bad.push('no successful response');
  if (r.waited && r.waited > r.ok * 0.01) bad.push(`${r.waited} requests sent >2 ms late`);
  if (r.targetRate && r.rps < r.targetRate * 0.95) bad.push(`reached ${Math.round(r.rps)} of ${r.targetRate} req/s`);
  return bad.length ? bad.join('; ') : undefined;
}

/** Build a check from rows; it is marked invalid when any row it uses had problems. */
export function check(label: string, unit: Unit, uses: Row[], value: number, aim?: Check['aim']): Check {
  const bad = uses.map((u) => [u.key, problems(u.result)] as const).filter(([, p]) => p);
  const c: Check = { label, value, unit, ...(aim ? { aim } : {}) };
  if (bad.length) c.invalid = bad.map(([k, p]) => `(${k}): ${p}`).join('; ');
  if (aim) {
    const ok = compare(value, aim.op, aim.target);
    c.met = ok && !c.invalid;
  }
  return c;
}

function compare(v: number, op: string, t: number): boolean {
  if (!Number.isFinite(v)) return false;
  switch (op) {
    case '>=':
      return v >= t;
    case '<=':
      return v <= t;
    case '<':
      return v < t;
    case '>':
      return v > t;
    default:
      return false;
  }
}

export function formatValue(v: number, unit: Unit): string {
  if (!Number.isFinite(v)) return 'n/a';
  switch (unit) {
    case 'ratio':
      return v.toFixed(2);
    case 'ms':
      return `${v.toFixed(2)} ms`;
    case 'ms-added':
      return `${v >= 0 ? '+' : ''}${v.toFixed(2)} ms`;
    case 'pct':
      return `${v.toFixed(1)} %`;
    case 'us':
      return `${Math.round(v)} µs`;
    case 'score':
      return String(Math.round(v));
    case 'kB':
      return `${v.toFixed(1)} kB`;
    case 'it/s':
      return `${Math.round(v)} it/s`;
  }
}

/** CPU seconds of every process group (all of the bench's processes) per 2xx response, in microseconds. */
export function totalCpuPerRequestUs(row: Row): number {
  const cpu = row.result.cpu;
  if (!cpu || row.result.ok === 0) return NaN;
  return (Object.values(cpu.groups).reduce((a, b) => a + b, 0) * 1e6) / row.result.ok;
}

/** CPU seconds of one process group per 2xx response, in microseconds (NaN when not measured). */
export function cpuPerRequestUs(row: Row, group: string): number {
  const cpu = row.result.cpu;
  if (!cpu || row.result.ok === 0 || cpu.groups[group] === undefined) return NaN;
  return (cpu.groups[group]! * 1e6) / row.result.ok;
}

export function formatAim(c: Check): string {
  if (!c.aim) return '';
  const t =
    c.unit === 'ratio'
      ? c.aim.target.toFixed(2)
      : c.unit === 'ms' || c.unit === 'ms-added'
        ? `${c.aim.target} ms`
        : c.unit === 'us'
          ? `${c.aim.target} µs`
          : c.unit === 'score'
            ? String(c.aim.target)
            : c.unit === 'kB'
              ? `${c.aim.target} kB`
              : c.unit === 'it/s'
                ? `${c.aim.target} it/s`
                : `${c.aim.target} %`;
  return `${c.aim.op} ${t}`;
}

export function verdict(c: Check): string {
  if (!c.aim) return c.invalid ? 'INVALID' : '';
  return c.met ? 'MET' : c.invalid ? 'NOT MET (invalid run)' : 'NOT MET';
}

/**
 * A note when a req/s-based figure and its CPU-based estimate disagree by more than `tolerance`
 * (same unit): other work on the machine then disturbed the runs unevenly.
 */
export function disagreement(label: string, fromRps: number, fromCpu: number, tolerance: number, unit: Unit): string[] {
  if (!Number.isFinite(fromRps) || !Number.isFinite(fromCpu) || Math.abs(fromRps - fromCpu) <= tolerance) return [];
  return [
    `${label}: req/s gives ${formatValue(fromRps, unit)}, CPU time per request gives ${formatValue(fromCpu, unit)}: ` +
      'other work on the machine disturbed these runs unevenly (see "others"); the CPU-based figure is the steadier one. Run again on a quieter machine.',
  ];
}
