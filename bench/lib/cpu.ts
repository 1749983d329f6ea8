import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * CPU time by process group during a measurement, from /proc (Linux). On a 2-core machine shared with
 * other work, req/s alone swings; CPU time per request of each process is steadier, and the CPU
 * used by processes that are not ours says whether a figure was disturbed.
 */
const TICK = 100; // USER_HZ: getconf CLK_TCK is 100 on Linux x86-64 and arm64

function procStat(pid: number): { ppid: number; ticks: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces: split after its closing parenthesis
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) };
  } catch {
    return null;
  }
}

function allPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * Ticks of the whole machine: total, busy (all but idle and iowait), and task time (user, nice,
 * system: what processes use; interrupts and a hypervisor's steal are left out of it).
 */
function machineTicks(): { busy: number; tasks: number; total: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = (v[3] ?? 0) + (v[4] ?? 0);
    return { busy: total - idle, tasks: (v[0] ?? 0) + (v[1] ?? 0) + (v[2] ?? 0), total };
  } catch {
    return { busy: 0, tasks: 0, total: 0 };
  }
}

/** The pids and every descendant of them, with their CPU ticks so far. */
function treeTicks(roots: number[], stats: Map<number, { ppid: number; ticks: number }>): Map<number, number> {
  const children = new Map<number, number[]>();
  for (const [pid, s] of stats) {
    const list = children.get(s.ppid) ?? [];
    list.push(pid);
    children.set(s.ppid, list);
  }
  const out = new Map<number, number>();
  const stack = roots.filter((p) => stats.has(p));
  while (stack.length) {
    const p = stack.pop()!;
    if (out.has(p)) continue;
    out.set(p, stats.get(p)!.ticks);
    for (const c of children.get(p) ?? []) stack.push(c);
  }
  return out;
}

export interface CpuUsage {
  seconds: number;
  /** CPU seconds per group (a group: some root pids and all their descendants). */
  groups: Record<string, number>;
  /** CPU used by processes in no group, in % of the whole machine (all cores). */
  othersPct: number;
  /** Whole machine busy, % of all cores. */
  machinePct: number;
}

/** Groups are resolved at start() and at stop(); a process in two groups counts in the first. */
export class CpuProbe {
  private t0 = 0;
  private m0 = { busy: 0, tasks: 0, total: 0 };
  private before = new Map<string, Map<number, number>>();

  constructor(private readonly groups: Record<string, () => number[]>) {}

  private snapshot(): Map<string, Map<number, number>> {
    const stats = new Map<number, { ppid: number; ticks: number }>();
    for (const pid of allPids()) {
      const s = procStat(pid);
      if (s) stats.set(pid, s);
    }
    const seen = new Set<number>();
    const snap = new Map<string, Map<number, number>>();
    for (const [name, roots] of Object.entries(this.groups)) {
      const t = treeTicks(roots(), stats);
      for (const p of [...t.keys()]) {
        if (seen.has(p)) t.delete(p);
        else seen.add(p);
      }
      snap.set(name, t);
    }
    return snap;
  }

  start() {
    this.before = this.snapshot();
    this.m0 = machineTicks();
    this.t0 = performance.now();
  }

  stop(): CpuUsage {
    const after = this.snapshot();
    const m1 = machineTicks();
    const seconds = (performance.now() - this.t0) / 1000;
    const groups: Record<string, number> = {};
    let ours = 0;
    for (const [name, a] of after) {
      const b = this.before.get(name) ?? new Map<number, number>();
      let ticks = 0;
      // processes that started during the run count from zero; those that ended are lost
      for (const [pid, t] of a) ticks += t - (b.get(pid) ?? 0);
      groups[name] = ticks / TICK;
      ours += ticks;
    }
    const totalTicks = m1.total - this.m0.total || 1;
    const busyTicks = m1.busy - this.m0.busy;
    const taskTicks = m1.tasks - this.m0.tasks;
    // /proc/stat counts every core: its total over the interval is about cores x seconds x TICK
    return {
      seconds,
      groups,
      othersPct: Math.max(0, ((taskTicks - ours) / totalTicks) * 100),
      machinePct: (busyTicks / totalTicks) * 100,
    };
  }
}

export const CORES = os.availableParallelism();
