import { AppError, type Principal } from '@countinghouse/kit';
import { hasPermission, workBucket, WORKSPACE_MESSAGES, type WorkItem, type WorkQuery, type WorkReply } from '@countinghouse/proto';
import { workLetters } from '../db/queries.js';
import type { EngagementDeps } from './deps.js';

/** Days a client has to sign before the letter counts as overdue in My work (as the reminders' last chase). */
export const LETTER_SIGN_DAYS = 14;

const londonDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });
const plusDays = (iso: string, n: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/** My work's letters awaiting signature: mine = of the clients assigned to me; everyone (staff): all. */
export async function findWorkLetters(deps: EngagementDeps, p: Principal, q: WorkQuery): Promise<WorkReply> {
  const who = q.who ?? 'mine';
  if (who === 'everyone' && !(p.kind === 'admin' || hasPermission(p.roles, 'work.everyone')))
    throw new AppError('FORBIDDEN', WORKSPACE_MESSAGES.everyoneNotAllowed);
  const today = londonDay.format(deps.now());
  const rows = await workLetters(deps.db, who === 'everyone' ? null : p.id);
  const items: WorkItem[] = [];
  for (const r of rows) {
    const due = plusDays(r.sent_on, LETTER_SIGN_DAYS);
    const bucket = workBucket(due, today);
    if (!bucket) continue;
    items.push({
      kind: 'letter',
      id: r.id,
      client_id: r.client_id,
      client_name: r.company_name,
      title: `Engagement letter version ${r.version} awaiting signature (sent ${r.sent_on})`,
      due_on: due,
      bucket,
      assignee_id: r.assigned_accountant_id,
      assignee_name: null,
      deadline_id: null,
    });
  }
  items.sort((a, b) => a.due_on.localeCompare(b.due_on));
  return { who, today, items };
}
