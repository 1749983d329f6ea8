import type { Deadline } from '@countinghouse/proto';

const RANK: Record<Deadline['status'], number> = { overdue: 0, due_soon: 1, upcoming: 2, done: 3 };

/** Overdue first (oldest first), then by due date; done ones last, newest first (issue 26: overdue always shown first). */
export function overdueFirst(deadlines: readonly Deadline[]): Deadline[] {
  return [...deadlines].sort((a, b) => {
    const r = RANK[a.status] - RANK[b.status];
    if (r !== 0) return r;
    return a.status === 'done' ? b.due_on.localeCompare(a.due_on) : a.due_on.localeCompare(b.due_on);
  });
}
