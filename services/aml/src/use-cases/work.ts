import { AppError, canSeeClient, clientScopeOf, type Principal } from '@countinghouse/kit';
import {
  hasPermission,
  workBucket,
  workHorizon,
  WORKSPACE_MESSAGES,
  type WorkItem,
  type WorkQuery,
  type WorkReply,
} from '@countinghouse/proto';
import { workFiles } from '../db/queries.js';
import { AML_WORK_SCOPE } from '../domain/access.js';
import type { AmlDeps } from './deps.js';

/**
 * My work's AML reviews (issue 26): files awaiting approval (the MLRO's, whoever prepared them) and
 * approved files whose periodic review falls due. mine: an MLRO's approvals, and the reviews of the
 * clients assigned to me; everyone (staff with work.everyone): all. People without aml.view see none.
 */
export async function findWorkAml(deps: AmlDeps, p: Principal, q: WorkQuery): Promise<WorkReply> {
  const who = q.who ?? 'mine';
  if (who === 'everyone' && !(p.kind === 'admin' || hasPermission(p.roles, 'work.everyone')))
    throw new AppError('FORBIDDEN', WORKSPACE_MESSAGES.everyoneNotAllowed);
  const today = deps.today();
  const canView = p.kind === 'admin' || hasPermission(p.roles, 'aml.view');
  if (!canView) return { who, today, items: [] };
  const scope = clientScopeOf(p, AML_WORK_SCOPE);
  const seesAll = scope.all;
  const everyone = who === 'everyone' && seesAll;
  const horizon = workHorizon(today);
  const rows = await workFiles(deps.db, {
    horizon,
    accountantId: everyone ? null : p.id,
    awaiting: everyone || hasPermission(p.roles, 'aml.approve'),
  });
  const items: WorkItem[] = [];
  for (const r of rows) {
    if (!canSeeClient(scope, { userId: null, assignedAccountantId: r.assigned_accountant_id })) continue;
    const awaiting = r.latest_state === 'awaiting_approval';
    // Awaiting approval: since the day it was sent; a review: its date.
    const due = awaiting ? (r.submitted_on ?? today) : r.approved_next_review_on!;
    const bucket = workBucket(due, today);
    if (!bucket) continue;
    items.push({
      kind: 'aml_review',
      id: `${r.client_id}:${r.latest_version}`,
      client_id: r.client_id,
      client_name: r.company_name,
      title: awaiting ? `Approve due diligence (version ${r.latest_version})` : `Due diligence review due ${r.approved_next_review_on}`,
      due_on: due,
      bucket,
      assignee_id: awaiting ? null : r.assigned_accountant_id,
      assignee_name: null,
      deadline_id: null,
    });
  }
  items.sort((a, b) =>
    (a.bucket === 'overdue') === (b.bucket === 'overdue') ? a.due_on.localeCompare(b.due_on) : a.bucket === 'overdue' ? -1 : 1,
  );
  return { who, today, items };
}
