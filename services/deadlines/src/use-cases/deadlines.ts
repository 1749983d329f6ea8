import { AppError, canSeeClient, clientScopeOf, enqueueEvent, type Principal } from '@countinghouse/kit';
import {
  DEADLINE_KINDS,
  DEADLINES_MESSAGES,
  hasPermission,
  workBucket,
  workHorizon,
  WORKSPACE_MESSAGES,
  type DeadlineDoneInput,
  type DeadlineListQuery,
  type MarkDoneReply,
  type NextDeadlinesQuery,
  type NextDeadlinesReply,
  type WorkQuery,
  type WorkReply,
} from '@countinghouse/proto';
import {
  clientDeadlines,
  deadlineById,
  listDeadlines,
  markDone,
  markUndone,
  nextDeadlines,
  profileOf,
  readProfile,
  workDeadlines,
} from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { CLIENT_SCOPE, manageScopeOf } from '../domain/access.js';
import type { DeadlinesDeps } from './deps.js';
import { visibleClient } from './client-record.js';
import { withBlocked } from './identity-verification.js';

export async function findDeadlines(deps: DeadlinesDeps, principal: Principal, q: DeadlineListQuery) {
  const today = deps.today();
  const { deadlines, total, totalCapped } = await listDeadlines(deps.db, clientScopeOf(principal, CLIENT_SCOPE), q, today);
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
  await visibleClient(deps.db, clientScopeOf(principal, CLIENT_SCOPE), clientId);
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

/**
 * Mark a deadline done with its filing record (filed on, reference, who; or filed by the previous agent
 * when it fell due before the practice's engagement started) and announce deadlines.deadline_done, in one
 * transaction.
 */
export async function markDeadlineDone(
  deps: DeadlinesDeps,
  principal: Principal,
  id: string,
  input: DeadlineDoneInput = {},
): Promise<MarkDoneReply> {
  const scope = manageScopeOf(principal);
  const today = deps.today();
  const actorName = principal.name || principal.id;
  const filedOn = input.filed_on ?? today;
  if (filedOn > today)
    throw new AppError('VALIDATION_FAILED', WORKSPACE_MESSAGES.filedInFuture, [
      { path: '/filed_on', message: WORKSPACE_MESSAGES.filedInFuture },
    ]);
  if (filedOn < '2000-01-01')
    throw new AppError('VALIDATION_FAILED', WORKSPACE_MESSAGES.filedTooEarly, [
      { path: '/filed_on', message: WORKSPACE_MESSAGES.filedTooEarly },
    ]);
  const reference = input.reference?.trim() || null;
  const previousAgent = input.filed_by === 'previous_agent';
  const result = await deps.db.transaction(async (t) => {
    const tx = t;
    const found = await deadlineById(tx, id, today, { forUpdate: true });
    if (!found) throw new AppError('NOT_FOUND', DEADLINES_MESSAGES.deadlineNotFound);
    if (!scope || !canSeeClient(scope, { userId: found.userId, assignedAccountantId: found.accountantId }))
      throw new AppError('FORBIDDEN', 'You can only mark the deadlines of your own clients');
    if (found.deadline.status === 'done') throw new AppError('CONFLICT', DEADLINES_MESSAGES.alreadyDone);
    const d = found.deadline;
    if (previousAgent) {
      const start = profileOf(await readProfile(tx, d.client_id)).engagement_start_on ?? null;
      if (!start)
        throw new AppError('VALIDATION_FAILED', WORKSPACE_MESSAGES.previousAgentNeedsStart, [
          { path: '/filed_by', message: WORKSPACE_MESSAGES.previousAgentNeedsStart },
        ]);
      if (d.due_on >= start)
        throw new AppError('VALIDATION_FAILED', WORKSPACE_MESSAGES.previousAgentAfterStart, [
          { path: '/filed_by', message: WORKSPACE_MESSAGES.previousAgentAfterStart },
        ]);
    }
    const doneAt = await markDone(tx, id, { id: principal.id, name: actorName }, { filedOn, reference, previousAgent });
    if (!doneAt) throw new AppError('CONFLICT', DEADLINES_MESSAGES.alreadyDone);
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
        filedOn,
        reference,
        filedByPreviousAgent: previousAgent,
      },
      { actor: { kind: principal.kind, id: principal.id }, key: d.client_id },
    );
    return (await deadlineById(tx, id, today))!.deadline;
  });
  return { deadline: result, message: DEADLINES_MESSAGES.markedDone };
}

/** Undo a done deadline: open again, announced (deadlines.deadline_reopened) for the Timeline and badges. */
export async function undoDeadlineDone(deps: DeadlinesDeps, principal: Principal, id: string): Promise<MarkDoneReply> {
  const scope = manageScopeOf(principal);
  const today = deps.today();
  const actorName = principal.name || principal.id;
  const result = await deps.db.transaction(async (tx) => {
    const found = await deadlineById(tx, id, today, { forUpdate: true });
    if (!found) throw new AppError('NOT_FOUND', DEADLINES_MESSAGES.deadlineNotFound);
    if (!scope || !canSeeClient(scope, { userId: found.userId, assignedAccountantId: found.accountantId }))
      throw new AppError('FORBIDDEN', 'You can only mark the deadlines of your own clients');
    if (!(await markUndone(tx, id))) throw new AppError('CONFLICT', WORKSPACE_MESSAGES.notDone);
    const d = found.deadline;
    await enqueueEvent(
      tx,
      SCHEMA,
      'deadlines.deadline_reopened',
      { deadlineId: d.id, clientId: d.client_id, kind: d.kind, period: d.period, dueOn: d.due_on, reopenedByName: actorName },
      { actor: { kind: principal.kind, id: principal.id }, key: d.client_id },
    );
    return (await deadlineById(tx, id, today))!.deadline;
  });
  return { deadline: result, message: WORKSPACE_MESSAGES.deadlineUndone };
}

/** My work's deadlines: open ones overdue or due by the end of next week; mine = of the clients assigned to me. */
export async function findWorkDeadlines(deps: DeadlinesDeps, principal: Principal, q: WorkQuery): Promise<WorkReply> {
  const who = q.who ?? 'mine';
  if (who === 'everyone' && !(principal.kind === 'admin' || hasPermission(principal.roles, 'work.everyone')))
    throw new AppError('FORBIDDEN', WORKSPACE_MESSAGES.everyoneNotAllowed);
  const today = deps.today();
  const rows = await workDeadlines(deps.db, { accountantId: who === 'mine' ? principal.id : null, horizon: workHorizon(today), today });
  const kindLabel = (k: string) => DEADLINE_KINDS.find((x) => x.value === k)?.label ?? k;
  return {
    who,
    today,
    items: rows.map((d) => ({
      kind: 'deadline' as const,
      id: d.id,
      client_id: d.client_id,
      client_name: d.client_name,
      title: `${kindLabel(d.kind)}: ${d.period}`,
      due_on: d.due_on,
      bucket: workBucket(d.due_on, today)!,
      assignee_id: d.assigned_accountant_id,
      assignee_name: null,
      deadline_id: d.id,
    })),
  };
}

/** The clients list's "next deadline" column: each visible client's earliest open deadline, overdue first. */
export async function findNextDeadlines(deps: DeadlinesDeps, principal: Principal, q: NextDeadlinesQuery): Promise<NextDeadlinesReply> {
  const today = deps.today();
  const ids = [...new Set(q.client_ids.split(',').filter(Boolean))].slice(0, 200);
  const rows = await nextDeadlines(deps.db, clientScopeOf(principal, CLIENT_SCOPE), ids, today);
  return {
    today,
    next: rows.map((r) => ({
      client_id: r.client_id,
      deadline_id: r.id,
      kind: r.kind,
      period: r.period,
      due_on: r.due_on,
      overdue: r.due_on < today,
      overdue_count: r.overdue_count,
    })),
  };
}
