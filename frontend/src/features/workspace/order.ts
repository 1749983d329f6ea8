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

/** Monday-start London weeks: which bucket of My work a due date falls in. */
export type Bucket = 'overdue' | 'this_week' | 'next_week' | 'later';

/** `today` is YYYY-MM-DD (the server's London day); weeks run Monday to Sunday. */
export function bucketOf(due: string, today: string): Bucket {
  if (due < today) return 'overdue';
  const t = new Date(`${today}T00:00:00Z`);
  const dow = (t.getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  const endThis = new Date(t.getTime() + (6 - dow) * 86_400_000).toISOString().slice(0, 10);
  const endNext = new Date(t.getTime() + (13 - dow) * 86_400_000).toISOString().slice(0, 10);
  if (due <= endThis) return 'this_week';
  if (due <= endNext) return 'next_week';
  return 'later';
}
