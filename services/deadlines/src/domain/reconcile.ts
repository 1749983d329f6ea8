import type { ComputedDeadline } from './engine.js';
import type { IsoDate } from './dates.js';

export interface StoredDeadline {
  id: string;
  key: string;
  dueOn: IsoDate;
  period: string;
  periodEnd: IsoDate | null;
  source: string;
  doneAt: Date | null;
}

export interface DateMove {
  id: string;
  key: string;
  from: IsoDate;
  to: IsoDate;
}

export interface Reconciliation {
  insert: ComputedDeadline[];
  /** Same obligation, new facts (a changed date, period text or source). */
  update: Array<{ id: string; next: ComputedDeadline }>;
  moves: DateMove[];
  /** Open deadlines in the window the rules no longer raise (profile changed, company dissolved). */
  remove: string[];
}

/**
 * Compare what the engine computes for a window with what is stored. Done deadlines are history and
 * never removed or moved; stored ones outside [from, to] are left alone.
 */
export function reconcile(stored: StoredDeadline[], computed: ComputedDeadline[], window: { from: IsoDate; to: IsoDate }): Reconciliation {
  const byKey = new Map(stored.map((s) => [s.key, s]));
  const wanted = new Set(computed.map((c) => c.key));
  const out: Reconciliation = { insert: [], update: [], moves: [], remove: [] };
  for (const c of computed) {
    const s = byKey.get(c.key);
    if (!s) {
      out.insert.push(c);
      continue;
    }
    if (s.doneAt) continue;
    if (s.dueOn !== c.dueOn || s.period !== c.period || s.source !== c.source || s.periodEnd !== c.periodEnd) {
      out.update.push({ id: s.id, next: c });
      if (s.dueOn !== c.dueOn) out.moves.push({ id: s.id, key: s.key, from: s.dueOn, to: c.dueOn });
    }
  }
  for (const s of stored) {
    if (s.doneAt || wanted.has(s.key)) continue;
    // A person verified (or no longer in office) takes their verification deadline with them, however old.
    if ((s.dueOn >= window.from && s.dueOn <= window.to) || s.key.startsWith('identity_verification:')) out.remove.push(s.id);
  }
  return out;
}
