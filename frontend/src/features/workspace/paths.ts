/** Where a client's record is, in the admin panel or in the workspace. */
const recordPath = (base: string, id: string) => `${base}/clients/${encodeURIComponent(id)}`;

/** The record's tabs that can be opened by address (?tab=): My work and tasks link straight to them. */
export const RECORD_TABS = [
  'overview',
  'timeline',
  'deadlines',
  'tasks',
  'jobs',
  'requests',
  'messages',
  'documents',
  'aml',
  'letter',
  'communications',
  'billing',
  'audit',
] as const;
export type RecordTab = (typeof RECORD_TABS)[number];

/** A tab of a client's record; a deadline's address also names the deadline (?deadline=), named at the top of the Deadlines tab. */
export function clientRecordTabPath(base: string, id: string, tab: RecordTab, deadlineId?: string | null): string {
  const q = new URLSearchParams({ tab });
  if (deadlineId) q.set('deadline', deadlineId);
  return `${recordPath(base, id)}?${q.toString()}`;
}
