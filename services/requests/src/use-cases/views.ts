import type { ClientRequest, RequestItem } from '@countinghouse/proto';
import { activityOf, directoryEntry, itemsOf, remindersOf, type ItemRow, type RequestRow } from '../db/queries.js';
import type { DbOrTx } from '@countinghouse/kit';
import { daysBetween, londonDate } from '@countinghouse/proto';

export function toItem(i: ItemRow): RequestItem {
  return {
    id: i.id,
    position: i.position,
    kind: i.kind,
    label: i.label,
    document_type: i.documentType ?? null,
    status: i.status,
    answer: i.answer,
    confirmed: i.confirmed,
    document_ids: i.documentIds,
    rejection_reason: i.rejectionReason,
    submitted_at: i.submittedAt?.toISOString() ?? null,
    reviewed_at: i.reviewedAt?.toISOString() ?? null,
  };
}

export const isOpenItem = (i: { status: string }) => i.status === 'requested' || i.status === 'rejected';

/** Requests with their items, reminders and activity, in one read per table. */
export async function toRequests(db: DbOrTx, rows: RequestRow[], now: Date): Promise<ClientRequest[]> {
  const ids = rows.map((r) => r.id);
  const [allItems, allReminders, allActivity] = await Promise.all([itemsOf(db, ids), remindersOf(db, ids), activityOf(db, ids)]);
  const names = new Map<string, string>();
  for (const r of rows) {
    if (!names.has(r.clientId)) names.set(r.clientId, (await directoryEntry(db, r.clientId))?.companyName ?? r.clientId);
  }
  const today = londonDate(now);
  return rows.map((r) => {
    const its = allItems.filter((i) => i.requestId === r.id);
    return {
      id: r.id,
      client_id: r.clientId,
      client_name: names.get(r.clientId)!,
      title: r.title,
      due_on: r.dueOn,
      status: r.status,
      deadline_id: r.deadlineId,
      assignee_id: r.assigneeId,
      sent_on: r.sentOn,
      waiting_days: r.status === 'open' ? Math.max(0, daysBetween(r.sentOn, today)) : 0,
      open_items: its.filter(isOpenItem).length,
      awaiting_review: its.filter((i) => i.status === 'submitted').length,
      items: its.map(toItem),
      reminders: allReminders.filter((m) => m.requestId === r.id).map((m) => ({ day: m.day, at: m.sentAt.toISOString(), to: m.sentTo })),
      activity: allActivity
        .filter((a) => a.requestId === r.id)
        .map((a) => ({ at: a.at.toISOString(), action: a.action, by_name: a.byName, detail: a.detail })),
      completed_at: r.completedAt?.toISOString() ?? null,
      created_at: r.createdAt.toISOString(),
    };
  });
}
