import { AppError, enqueueEvent, type Principal } from '@countinghouse/kit';
import { DEADLINES_MESSAGES, type DeadlineListQuery, type MarkDoneReply } from '@countinghouse/proto';
import { canSee, clientDeadlines, deadlineById, listDeadlines, markDone } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { manageScopeOf, scopeOf } from '../domain/access.js';
import type { DeadlinesDeps } from './deps.js';
import { visibleClient } from './client-record.js';
import { withBlocked } from './identity-verification.js';

export async function findDeadlines(deps: DeadlinesDeps, principal: Principal, q: DeadlineListQuery) {
  const today = deps.today();
  const { deadlines, total, totalCapped } = await listDeadlines(deps.db, scopeOf(principal), q, today);
  return {
    deadlines: await withBlocked(deps.db, deadlines),
    total,
    total_capped: totalCapped,
    page: q.page,
    page_size: q.page_size,
    today,
  };
}

export async function findClientDeadlines(deps: DeadlinesDeps, principal: Principal, clientId: string) {
  await visibleClient(deps.db, scopeOf(principal), clientId);
  const today = deps.today();
  return { deadlines: await withBlocked(deps.db, await clientDeadlines(deps.db, clientId, today)), today };
}

/** The signed-in client's own businesses: their next open deadlines. */
export async function findMyDeadlines(deps: DeadlinesDeps, principal: Principal) {
  const today = deps.today();
  const { deadlines } = await listDeadlines(
    deps.db,
    { all: false, ownerUserId: principal.id, accountantId: null },
    { window: 'all', page: 1, page_size: 10 },
    today,
  );
  return { deadlines: await withBlocked(deps.db, deadlines), today };
}

/** Mark a deadline done (who and when kept) and announce deadlines.deadline_done, in one transaction. */
export async function markDeadlineDone(deps: DeadlinesDeps, principal: Principal, id: string): Promise<MarkDoneReply> {
  const scope = manageScopeOf(principal);
  const today = deps.today();
  const actorName = principal.name || principal.id;
  const result = await deps.db.transaction(async (t) => {
    const tx = t;
    const found = await deadlineById(tx, id, today, { forUpdate: true });
    if (!found) throw new AppError('NOT_FOUND', DEADLINES_MESSAGES.deadlineNotFound);
    if (!scope || !canSee(scope, { userId: found.userId, assignedAccountantId: found.accountantId }))
      throw new AppError('FORBIDDEN', 'You can only mark the deadlines of your own clients');
    if (found.deadline.status === 'done') throw new AppError('CONFLICT', DEADLINES_MESSAGES.alreadyDone);
    const doneAt = await markDone(tx, id, { id: principal.id, name: actorName });
    if (!doneAt) throw new AppError('CONFLICT', DEADLINES_MESSAGES.alreadyDone);
    const d = found.deadline;
    await enqueueEvent(
      tx,
      SCHEMA,
      'deadlines.deadline_done',
      {
        deadlineId: d.id,
        clientId: d.client_id,
        kind: d.kind,
        period: d.period,
        dueOn: d.due_on,
        doneAt: doneAt.toISOString(),
        doneByName: actorName,
      },
      { actor: { kind: principal.kind, id: principal.id }, key: d.client_id },
    );
    return (await deadlineById(tx, id, today))!.deadline;
  });
  return { deadline: result, message: DEADLINES_MESSAGES.markedDone };
}
