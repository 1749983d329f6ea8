import { enqueueEvent } from '@countinghouse/kit';
import { deadlineKindLabel } from '@countinghouse/proto';
import {
  claimIdentityReminder,
  deadlinesNeedingTasks,
  identityRemindersDue,
  deadlinesNewlyOverdue,
  linkedClients,
  markOverdueAnnounced,
  markTaskRequested,
  profiledClientIds,
  readLeadDays,
} from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { enGb } from '../domain/dates.js';
import { IDV_REMINDER_DAYS, identityReminderText } from '../domain/identity-verification.js';
import type { DeadlinesDeps } from './deps.js';
import { openJobsFromDeadlines, openRecurringJobs } from './jobs.js';
import { recomputeClient } from './recompute-client.js';
import { refreshCompany } from './refresh-company.js';

const SYSTEM = { kind: 'system' as const, id: null };
const BATCH = 200;

export interface DailyResult {
  recomputed: number;
  tasksRequested: number;
  overdueAnnounced: number;
  identityReminders: number;
  /** Client jobs opened from deadlines entering their kind's lead time (issue 29). */
  jobsOpened: number;
}

/**
 * The daily run: keep every client's deadlines current (the window moves a day), ask crm for a task
 * for each open deadline entering the lead time, and announce each one passed and not done. Each
 * deadline is claimed and its event written in one transaction, so a second run (or a retry) opens
 * nothing new.
 */
export async function runDaily(deps: DeadlinesDeps, day?: string): Promise<DailyResult> {
  const today = day ?? deps.today();
  const result: DailyResult = { recomputed: 0, tasksRequested: 0, overdueAnnounced: 0, identityReminders: 0, jobsOpened: 0 };
  for (let after: string | null = null; ;) {
    const ids = await profiledClientIds(deps.db, after, BATCH);
    if (ids.length === 0) break;
    for (const id of ids) {
      await deps.db.transaction(async (t) => void (await recomputeClient(t, id, today, 'daily')));
      result.recomputed++;
    }
    after = ids[ids.length - 1]!;
  }

  const leadDays = await readLeadDays(deps.db);
  for (;;) {
    const rows = await deadlinesNeedingTasks(deps.db, today, leadDays, BATCH);
    if (rows.length === 0) break;
    for (const d of rows) {
      const opened = await deps.db.transaction(async (t) => {
        const tx = t;
        if (!(await markTaskRequested(tx, d.id, d.due_on))) return false;
        const label = deadlineKindLabel(d.kind);
        await enqueueEvent(
          tx,
          SCHEMA,
          'deadlines.task_requested',
          {
            idempotencyKey: `deadline:${d.id}:${d.due_on}`,
            deadlineId: d.id,
            clientId: d.client_id,
            kind: d.kind,
            title: `${label}: ${d.company_name}`.slice(0, 200),
            description: `${label} for ${d.company_name}, ${d.period}. Due ${enGb(d.due_on)}.`,
            dueOn: d.due_on,
            assigneeId: d.assigned_accountant_id,
          },
          { actor: SYSTEM, key: d.client_id },
        );
        return true;
      });
      if (opened) result.tasksRequested++;
    }
    if (rows.length < BATCH) break;
  }

  result.jobsOpened = (await openJobsFromDeadlines(deps, today)) + (await openRecurringJobs(deps, today));

  for (;;) {
    const rows = await deadlinesNewlyOverdue(deps.db, today, BATCH);
    if (rows.length === 0) break;
    for (const d of rows) {
      const announced = await deps.db.transaction(async (t) => {
        const tx = t;
        if (!(await markOverdueAnnounced(tx, d.id))) return false;
        await enqueueEvent(
          tx,
          SCHEMA,
          'deadlines.deadline_overdue',
          {
            deadlineId: d.id,
            clientId: d.client_id,
            clientName: d.company_name,
            kind: d.kind,
            period: d.period,
            dueOn: d.due_on,
            assigneeId: d.assigned_accountant_id,
          },
          { actor: SYSTEM, key: d.client_id },
        );
        return true;
      });
      if (announced) result.overdueAnnounced++;
    }
    if (rows.length < BATCH) break;
  }

  // Identity verification (ECCTA 2023): the client's contact is reminded once per person and due date.
  for (;;) {
    const rows = await identityRemindersDue(deps.db, today, IDV_REMINDER_DAYS, BATCH);
    if (rows.length === 0) break;
    for (const p of rows) {
      const sent = await deps.db.transaction(async (tx) => {
        if (!(await claimIdentityReminder(tx, p.client_id, p.person_key, p.due_on))) return false;
        const mail = identityReminderText({
          name: p.name,
          preferredName: p.details?.preferred_name ?? null,
          dueOn: p.due_on,
          overdue: p.due_on < today,
          companyName: p.company_name,
          relevantLegalEntity: p.person_kind === 'relevant_legal_entity',
        });
        await enqueueEvent(
          tx,
          SCHEMA,
          'deadlines.identity_reminder',
          { clientId: p.client_id, personKey: p.person_key, dueOn: p.due_on, to: p.contact_email, ...mail },
          { actor: SYSTEM, key: p.client_id },
        );
        return true;
      });
      if (sent) result.identityReminders++;
    }
    if (rows.length < BATCH) break;
  }
  return result;
}

/** The daily Companies House refresh: every linked client (or one), one at a time within the rate limit. */
export async function runCompaniesHouseRefresh(deps: DeadlinesDeps, clientId?: string) {
  let refreshed = 0;
  let failed = 0;
  if (!deps.companiesHouse) return { refreshed, failed, configured: false };
  for (let after: string | null = null; ;) {
    const rows: Array<{ clientId: string }> = clientId ? [{ clientId }] : await linkedClients(deps.db, after, BATCH);
    if (rows.length === 0) break;
    for (const r of rows) {
      const outcome = await refreshCompany(deps, r.clientId, SYSTEM);
      if (outcome.ok) refreshed++;
      else failed++;
    }
    if (clientId || rows.length < BATCH) break;
    after = rows[rows.length - 1]!.clientId;
  }
  return { refreshed, failed, configured: true };
}
