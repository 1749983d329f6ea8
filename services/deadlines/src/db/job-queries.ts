import type { DeadlineKind, JobKind, JobListQuery, JobSummary, JobTemplateInput } from '@countinghouse/proto';
import { sql, type SQL } from 'drizzle-orm';
import type { IsoDate } from '../domain/dates.js';
import type { Exec } from './queries.js';
import type { JobChecklistItem } from './schema.js';

// Every query of client jobs (issue 29); each takes Exec, so it runs alone or in the caller's transaction.

/** Which clients' jobs: every client, or those assigned to one accountant (proto's clientVisibility). */
export type JobScope = { all: true } | { all: false; accountantId: string };

const scoped = (scope: JobScope): SQL =>
  scope.all
    ? sql`true`
    : sql`j.client_id in (select client_id from deadlines.client_directory where assigned_accountant_id = ${scope.accountantId})`;

export type JobRow = {
  id: string;
  client_id: string;
  client_name: string;
  deadline_id: string | null;
  kind: JobKind;
  title: string;
  period: string | null;
  stages: string[];
  stage_index: number;
  stage: string;
  status: 'open' | 'filed';
  checklist: JobChecklistItem[];
  statutory_due_on: string | null;
  due_on: string;
  assignee_id: string | null;
  assignee_name: string | null;
  reviewer_id: string | null;
  reviewer_name: string | null;
  reviewer_role: string;
  budget_minutes: number;
  used_minutes: number;
  waiting_on_client: boolean;
  filed_on: string | null;
  reference: string | null;
  assigned_accountant_id: string | null;
  waiting_request: string | null;
};

/** What a list row or a board card shows (no stages or checklist: the job page reads those). */
const SUMMARY_COLUMNS = sql`j.id, j.client_id, coalesce(c.company_name, j.client_id) as client_name, j.deadline_id, j.kind, j.title, j.period,
  j.stage_index, j.stage, j.status, j.statutory_due_on::text as statutory_due_on, j.due_on::text as due_on,
  j.assignee_id, a.name as assignee_name, j.reviewer_id, r.name as reviewer_name, j.reviewer_role, j.budget_minutes, j.used_minutes,
  j.waiting_on_client, j.filed_on::text as filed_on, j.reference, c.assigned_accountant_id,
  case when j.open_requests > 0 then
    (select q.title from deadlines.job_requests q where q.deadline_id = j.deadline_id and q.open order by q.title limit 1) end as waiting_request`;
const JOB_COLUMNS = sql`${SUMMARY_COLUMNS}, j.stages, j.checklist`;

export type JobSummaryRow = Omit<JobRow, 'stages' | 'checklist'>;
const JOB_FROM = sql`deadlines.jobs j left join deadlines.client_directory c on c.client_id = j.client_id
  left join deadlines.job_staff a on a.user_id = j.assignee_id left join deadlines.job_staff r on r.user_id = j.reviewer_id`;

export function toSummary(r: JobSummaryRow, today: IsoDate): JobSummary {
  return {
    id: r.id,
    client_id: r.client_id,
    client_name: r.client_name,
    kind: r.kind,
    title: r.title,
    period: r.period,
    stage: r.stage,
    stage_index: r.stage_index,
    status: r.status,
    due_on: r.due_on,
    statutory_due_on: r.statutory_due_on,
    assignee_id: r.assignee_id,
    assignee_name: r.assignee_name,
    reviewer_id: r.reviewer_id,
    reviewer_name: r.reviewer_name,
    budget_minutes: r.budget_minutes,
    used_minutes: r.used_minutes,
    waiting_on_client: r.waiting_on_client || r.waiting_request !== null,
    waiting_request: r.waiting_request,
    overdue: r.status === 'open' && r.due_on < today,
    deadline_id: r.deadline_id,
  };
}

export async function jobById(db: Exec, id: string, opts: { forUpdate?: boolean } = {}): Promise<JobRow | null> {
  const rows = await db.execute<JobRow>(
    sql`select ${JOB_COLUMNS} from ${JOB_FROM} where j.id = ${id}${opts.forUpdate ? sql` for update of j` : sql``}`,
  );
  return rows.rows[0] ?? null;
}

function listWhere(scope: JobScope, q: Partial<JobListQuery> & { assignee?: string | null }, today: IsoDate): SQL {
  const parts: SQL[] = [scoped(scope)];
  const status = q.status ?? 'open';
  if (status !== 'all') parts.push(sql`j.status = ${status}`);
  if (q.kind) parts.push(sql`j.kind = ${q.kind}`);
  if (q.stage) parts.push(sql`j.stage = ${q.stage}`);
  if (q.assignee) parts.push(sql`j.assignee_id = ${q.assignee}`);
  if (q.client_id) parts.push(sql`j.client_id = ${q.client_id}`);
  if (q.due_from) parts.push(sql`j.due_on >= ${q.due_from}`);
  if (q.due_to) parts.push(sql`j.due_on <= ${q.due_to}`);
  if (q.overdue) parts.push(sql`j.status = 'open' and j.due_on < ${today}`);
  if (q.waiting_on_client !== undefined) {
    // (the predicate of jobs_open_waiting_due_idx, word for word, so the planner can use it)
    const waiting = sql`(j.waiting_on_client or j.open_requests > 0)`;
    parts.push(q.waiting_on_client ? waiting : sql`not ${waiting}`);
  }
  return sql.join(parts, sql` and `);
}

export const TOTAL_CAP = 10_000;

export async function listJobs(
  db: Exec,
  scope: JobScope,
  q: JobListQuery & { assignee?: string | null },
  today: IsoDate,
): Promise<{ rows: JobSummaryRow[]; total: number; capped: boolean }> {
  const where = listWhere(scope, q, today);
  const [rows, count] = await Promise.all([
    db.execute<JobSummaryRow>(
      sql`select ${SUMMARY_COLUMNS} from ${JOB_FROM} where ${where} order by j.due_on, j.id limit ${q.page_size} offset ${(q.page - 1) * q.page_size}`,
    ),
    // Counted up to a cap: past it the list says "10,000+" rather than read every row for the total.
    db.execute<{ n: number }>(sql`select count(*)::int as n from (select 1 from deadlines.jobs j where ${where} limit ${TOTAL_CAP + 1}) x`),
  ]);
  const n = count.rows[0]?.n ?? 0;
  return { rows: rows.rows, total: Math.min(n, TOTAL_CAP), capped: n > TOTAL_CAP };
}

/**
 * The board: each stage's count and its first `perColumn` open jobs by due date. The counts read the
 * (kind, stage, due) index; each column is one index range with a limit (a lateral join), so the board
 * costs the same with 100 or 100,000 jobs of a kind.
 */
export async function boardJobs(db: Exec, scope: JobScope, kind: JobKind, assignee: string | null, perColumn: number) {
  const where = listWhere(scope, { kind, assignee }, '0000-01-01');
  const rows = await db.execute<JobSummaryRow & { n: number }>(sql`
    with counts as (select j.stage, count(*)::int as n from deadlines.jobs j where ${where} group by j.stage)
    select x.*, counts.n from counts cross join lateral (
      select ${SUMMARY_COLUMNS} from ${JOB_FROM} where ${where} and j.stage = counts.stage order by j.due_on, j.id limit ${perColumn}
    ) x order by x.due_on, x.id`);
  return rows.rows;
}

// --- templates

export type TemplateRow = JobTemplateInput & {
  kind: string;
};

export async function templateRows(db: Exec): Promise<TemplateRow[]> {
  const rows = await db.execute<TemplateRow>(
    sql`select kind, stages, budget_minutes, reviewer_role, lead_days, target_days_before from deadlines.job_templates`,
  );
  return rows.rows;
}

export async function saveTemplate(db: Exec, kind: JobKind, t: JobTemplateInput, by: string) {
  await db.execute(sql`
    insert into deadlines.job_templates (kind, stages, budget_minutes, reviewer_role, lead_days, target_days_before, updated_by, updated_at)
    values (${kind}, ${JSON.stringify(t.stages)}::jsonb, ${t.budget_minutes}, ${t.reviewer_role}, ${t.lead_days}, ${t.target_days_before}, ${by}, now())
    on conflict (kind) do update set stages = excluded.stages, budget_minutes = excluded.budget_minutes, reviewer_role = excluded.reviewer_role,
      lead_days = excluded.lead_days, target_days_before = excluded.target_days_before, updated_by = excluded.updated_by, updated_at = now()`);
}

// --- opening jobs from deadlines

export type DeadlineForJob = {
  id: string;
  client_id: string;
  kind: DeadlineKind;
  period: string;
  due_on: string;
  company_name: string;
  assigned_accountant_id: string | null;
};

/** Open deadlines of the given kinds within their kind's lead days that have no job yet. */
export async function deadlinesWithoutJobs(
  db: Exec,
  today: IsoDate,
  leads: ReadonlyArray<{ kind: string; leadDays: number }>,
  limit: number,
) {
  if (leads.length === 0) return [];
  const windows = sql.join(
    leads.map((l) => sql`(d.kind = ${l.kind} and d.due_on <= ${today}::date + ${l.leadDays}::int)`),
    sql` or `,
  );
  const rows = await db.execute<DeadlineForJob>(sql`
    select d.id, d.client_id, d.kind, d.period, d.due_on::text as due_on, c.company_name, c.assigned_accountant_id
    from deadlines.deadlines d join deadlines.client_directory c on c.client_id = d.client_id
    where d.done_at is null and d.due_on >= ${today} and (${windows})
      and not exists (select 1 from deadlines.jobs j where j.deadline_id = d.id)
    order by d.due_on, d.id limit ${limit}`);
  return rows.rows;
}

export interface NewJob {
  clientId: string;
  deadlineId: string | null;
  recurringKey?: string | null;
  kind: JobKind;
  title: string;
  period: string | null;
  stages: string[];
  checklist: JobChecklistItem[];
  statutoryDueOn: string | null;
  dueOn: string;
  assigneeId: string | null;
  reviewerRole: string;
  budgetMinutes: number;
}

/** Insert a job; null when its deadline or occurrence already has one (the unique indexes: a second run opens nothing). */
export async function insertJob(db: Exec, j: NewJob, by: { id: string | null; name: string }): Promise<string | null> {
  const rows = await db.execute<{ id: string }>(sql`
    insert into deadlines.jobs (client_id, deadline_id, recurring_key, kind, title, period, stages, stage, checklist, statutory_due_on, due_on, assignee_id, reviewer_role, budget_minutes, open_requests)
    values (${j.clientId}, ${j.deadlineId}, ${j.recurringKey ?? null}, ${j.kind}, ${j.title}, ${j.period}, ${JSON.stringify(j.stages)}::jsonb, ${j.stages[0]!},
      ${JSON.stringify(j.checklist)}::jsonb, ${j.statutoryDueOn}, ${j.dueOn}, ${j.assigneeId}, ${j.reviewerRole}, ${j.budgetMinutes},
      (select count(*)::int from deadlines.job_requests q where q.deadline_id = ${j.deadlineId} and q.open))
    on conflict do nothing
    returning id`);
  const id = rows.rows[0]?.id ?? null;
  if (id) await addStageHistory(db, id, j.stages[0]!, by);
  return id;
}

export async function addStageHistory(db: Exec, jobId: string, stage: string, by: { id: string | null; name: string }) {
  await db.execute(
    sql`insert into deadlines.job_stage_history (job_id, stage, by_id, by_name) values (${jobId}, ${stage}, ${by.id}, ${by.name})`,
  );
}

export async function updateJob(
  db: Exec,
  id: string,
  set: Partial<{
    stageIndex: number;
    stage: string;
    status: 'open' | 'filed';
    reviewerId: string | null;
    assigneeId: string | null;
    waitingOnClient: boolean;
    dueOn: string;
    filedOn: string;
    reference: string | null;
    checklist: JobChecklistItem[];
  }>,
) {
  const parts: SQL[] = [sql`updated_at = now()`];
  if (set.stageIndex !== undefined) parts.push(sql`stage_index = ${set.stageIndex}, stage_entered_at = now()`);
  if (set.stage !== undefined) parts.push(sql`stage = ${set.stage}`);
  if (set.status !== undefined) parts.push(sql`status = ${set.status}`);
  if (set.reviewerId !== undefined) parts.push(sql`reviewer_id = ${set.reviewerId}`);
  if (set.assigneeId !== undefined) parts.push(sql`assignee_id = ${set.assigneeId}`);
  if (set.waitingOnClient !== undefined) parts.push(sql`waiting_on_client = ${set.waitingOnClient}`);
  if (set.dueOn !== undefined) parts.push(sql`due_on = ${set.dueOn}`);
  if (set.filedOn !== undefined) parts.push(sql`filed_on = ${set.filedOn}`);
  if (set.reference !== undefined) parts.push(sql`reference = ${set.reference}`);
  if (set.checklist !== undefined) parts.push(sql`checklist = ${JSON.stringify(set.checklist)}::jsonb`);
  await db.execute(sql`update deadlines.jobs set ${sql.join(parts, sql`, `)} where id = ${id}`);
}

/** The reviewer for a role: the active member of staff with that role with the fewest open reviews (ties by name). */
export async function pickReviewer(db: Exec, role: string, notUserId: string | null): Promise<string | null> {
  const rows = await db.execute<{ user_id: string }>(sql`
    select s.user_id from deadlines.job_staff s
    where s.active and s.role = ${role} and s.user_id is distinct from ${notUserId}
    order by (select count(*) from deadlines.jobs j where j.reviewer_id = s.user_id and j.status = 'open'), s.name, s.user_id limit 1`);
  return rows.rows[0]?.user_id ?? null;
}

// --- notes, time, timers

export async function addNote(db: Exec, jobId: string, text: string, by: { id: string; name: string }) {
  await db.execute(sql`insert into deadlines.job_notes (job_id, text, by_id, by_name) values (${jobId}, ${text}, ${by.id}, ${by.name})`);
}

export async function jobNotes(db: Exec, jobId: string) {
  const rows = await db.execute<{ id: string; text: string; by_name: string; at: string }>(
    sql`select id, text, by_name, to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as at from deadlines.job_notes where job_id = ${jobId} order by at desc, id`,
  );
  return rows.rows;
}

export type TimeRow = {
  id: string;
  user_id: string;
  user_name: string;
  minutes: number;
  worked_on: string;
  note: string | null;
  source: 'manual' | 'timer';
};

export async function addTime(
  db: Exec,
  e: {
    jobId: string;
    clientId: string;
    userId: string;
    userName: string;
    minutes: number;
    workedOn: string;
    note: string | null;
    source: 'manual' | 'timer';
  },
): Promise<TimeRow> {
  const rows = await db.execute<TimeRow>(sql`
    insert into deadlines.time_entries (job_id, client_id, user_id, user_name, minutes, worked_on, note, source)
    values (${e.jobId}, ${e.clientId}, ${e.userId}, ${e.userName}, ${e.minutes}, ${e.workedOn}, ${e.note}, ${e.source})
    returning id, user_id, user_name, minutes, worked_on::text as worked_on, note, source`);
  await db.execute(sql`update deadlines.jobs set used_minutes = used_minutes + ${e.minutes}, updated_at = now() where id = ${e.jobId}`);
  return rows.rows[0]!;
}

export async function jobTime(db: Exec, jobId: string) {
  const rows = await db.execute<TimeRow>(
    sql`select id, user_id, user_name, minutes, worked_on::text as worked_on, note, source from deadlines.time_entries where job_id = ${jobId} order by worked_on desc, created_at desc`,
  );
  return rows.rows;
}

export async function readTimer(db: Exec, userId: string) {
  const rows = await db.execute<{ job_id: string; started_at: string; title: string; user_name: string; started_ms: number }>(sql`
    select t.job_id, to_char(t.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as started_at, j.title, t.user_name,
      (extract(epoch from t.started_at) * 1000)::float8 as started_ms
    from deadlines.job_timers t join deadlines.jobs j on j.id = t.job_id where t.user_id = ${userId}`);
  return rows.rows[0] ?? null;
}

export async function startTimer(db: Exec, userId: string, userName: string, jobId: string): Promise<boolean> {
  const rows = await db.execute(sql`insert into deadlines.job_timers (user_id, user_name, job_id) values (${userId}, ${userName}, ${jobId})
    on conflict (user_id) do nothing returning user_id`);
  return rows.rows.length > 0;
}

export async function takeTimer(db: Exec, userId: string) {
  const rows = await db.execute<{ job_id: string; user_name: string; minutes: number }>(sql`
    delete from deadlines.job_timers where user_id = ${userId}
    returning job_id, user_name, ceil(extract(epoch from (now() - started_at)) / 60)::int as minutes`);
  return rows.rows[0] ?? null;
}

// --- staff, leave

export type StaffRow = {
  user_id: string;
  name: string;
  role: string | null;
  active: boolean;
  cost_rate_pence: number;
  weekly_capacity_minutes: number;
  leave: string[];
};

export async function staffRows(db: Exec, from: IsoDate, userId?: string): Promise<StaffRow[]> {
  const rows = await db.execute<StaffRow>(sql`
    select s.user_id, s.name, s.role, s.active, s.cost_rate_pence, s.weekly_capacity_minutes,
      coalesce((select array_agg(l.day::text order by l.day) from deadlines.staff_leave l where l.user_id = s.user_id and l.day >= ${from}), '{}') as leave
    from deadlines.job_staff s where ${userId ? sql`s.user_id = ${userId}` : sql`s.active`} order by s.name, s.user_id`);
  return rows.rows;
}

/** identity.role_changed / staff_joined: the person's name and role (rates and capacity stay). */
export async function upsertStaff(db: Exec, s: { userId: string; name: string; role: string | null; active: boolean }) {
  await db.execute(sql`
    insert into deadlines.job_staff (user_id, name, role, active) values (${s.userId}, ${s.name}, ${s.role}, ${s.active})
    on conflict (user_id) do update set name = excluded.name, role = coalesce(excluded.role, deadlines.job_staff.role),
      active = excluded.active, updated_at = now()`);
}

/** identity.staff_joined: a row until role_changed brings the name. */
export async function addJoinedStaff(db: Exec, userId: string, email: string, role: string) {
  await db.execute(
    sql`insert into deadlines.job_staff (user_id, name, role) values (${userId}, ${email}, ${role}) on conflict (user_id) do nothing`,
  );
}

/** A role taken away: the person stops being offered (their jobs stay theirs until reassigned). */
export async function deactivateStaffRole(db: Exec, userId: string, role: string) {
  await db.execute(sql`update deadlines.job_staff set active = false, updated_at = now() where user_id = ${userId} and role = ${role}`);
}

export async function patchStaff(
  db: Exec,
  userId: string,
  p: { name?: string; costRatePence?: number; weeklyCapacityMinutes?: number },
  fallbackName: string,
) {
  await db.execute(sql`
    insert into deadlines.job_staff (user_id, name, cost_rate_pence, weekly_capacity_minutes)
    values (${userId}, ${p.name ?? fallbackName}, ${p.costRatePence ?? 0}, ${p.weeklyCapacityMinutes ?? 37 * 60 + 30})
    on conflict (user_id) do update set
      name = coalesce(${p.name ?? null}, deadlines.job_staff.name),
      cost_rate_pence = coalesce(${p.costRatePence ?? null}::int, deadlines.job_staff.cost_rate_pence),
      weekly_capacity_minutes = coalesce(${p.weeklyCapacityMinutes ?? null}::int, deadlines.job_staff.weekly_capacity_minutes),
      updated_at = now()`);
}

export async function replaceLeave(db: Exec, userId: string, from: IsoDate, days: readonly string[]) {
  await db.execute(sql`delete from deadlines.staff_leave where user_id = ${userId} and day >= ${from}`);
  const future = [...new Set(days.filter((d) => d >= from))];
  if (future.length)
    await db.execute(
      sql`insert into deadlines.staff_leave (user_id, day) values ${sql.join(
        future.map((d) => sql`(${userId}, ${d})`),
        sql`, `,
      )} on conflict do nothing`,
    );
}

/** Open jobs due in [from, to] per assignee, for the capacity view. */
export async function capacityJobs(db: Exec, from: IsoDate, to: IsoDate, userId?: string) {
  const rows = await db.execute<{ assignee_id: string; due_on: string; budget_minutes: number }>(sql`
    select j.assignee_id, j.due_on::text as due_on, j.budget_minutes from deadlines.jobs j
    where j.status = 'open' and j.assignee_id is not null and j.due_on between ${from} and ${to}
      ${userId ? sql`and j.assignee_id = ${userId}` : sql``}`);
  return rows.rows;
}

export async function leaveBetween(db: Exec, from: IsoDate, to: IsoDate) {
  const rows = await db.execute<{ user_id: string; day: string }>(
    sql`select user_id, day::text as day from deadlines.staff_leave where day between ${from} and ${to}`,
  );
  return rows.rows;
}

/** Time recorded in a month per client and person (with the person's cost rate), and each active client's fee. */
export async function monthTime(db: Exec, from: IsoDate, to: IsoDate) {
  const rows = await db.execute<{ client_id: string; minutes: number; rate_pence: number }>(sql`
    select t.client_id, sum(t.minutes)::int as minutes, coalesce(s.cost_rate_pence, 0) as rate_pence
    from deadlines.time_entries t left join deadlines.job_staff s on s.user_id = t.user_id
    where t.worked_on between ${from} and ${to}
    group by t.client_id, s.cost_rate_pence`);
  return rows.rows;
}

/**
 * Each client's fee for a month (London dates from..to): the last active, paying state in effect during
 * it, at its start or set within it (a client who cancels mid-month has paid for that month; an upgrade
 * in the month counts at the new fee; decision 661); with the clients who had time recorded in it.
 */
export async function monthFees(db: Exec, from: IsoDate, to: IsoDate, clientIds: readonly string[]) {
  const start = sql`(${from}::date)::timestamp at time zone 'Europe/London'`;
  const end = sql`(${to}::date + 1)::timestamp at time zone 'Europe/London'`;
  const rows = await db.execute<{
    client_id: string;
    company_name: string;
    package_name: string | null;
    monthly_fee_pence: number | null;
  }>(sql`
    with fees as (
      select distinct on (f.client_id) f.client_id, f.package_name, f.monthly_fee_pence from deadlines.client_fees f
      where f.effective_at < ${end} and f.subscription_status = 'active' and f.monthly_fee_pence > 0
        and (f.effective_at >= ${start}
          or f.effective_at = (select max(g.effective_at) from deadlines.client_fees g where g.client_id = f.client_id and g.effective_at <= ${start}))
      order by f.client_id, f.effective_at desc)
    select c.client_id, c.company_name, coalesce(fees.package_name, c.package_name) as package_name, fees.monthly_fee_pence
    from deadlines.client_directory c left join fees on fees.client_id = c.client_id
    where fees.client_id is not null
      ${
        clientIds.length
          ? sql`or c.client_id in (${sql.join(
              clientIds.map((c) => sql`${c}`),
              sql`, `,
            )})`
          : sql``
      }`);
  return rows.rows;
}

// --- recurring schedules

export type ScheduleRow = {
  client_id: string;
  kind: 'bookkeeping' | 'payroll_run';
  day_of_month: number;
  active: boolean;
  company_name: string;
  assigned_accountant_id: string | null;
};

export async function schedules(db: Exec, opts: { clientId?: string; activeOnly?: boolean } = {}): Promise<ScheduleRow[]> {
  const rows = await db.execute<ScheduleRow>(sql`
    select s.client_id, s.kind, s.day_of_month, s.active, c.company_name, c.assigned_accountant_id
    from deadlines.job_schedules s join deadlines.client_directory c on c.client_id = s.client_id
    where ${opts.clientId ? sql`s.client_id = ${opts.clientId}` : sql`true`} and ${opts.activeOnly ? sql`s.active` : sql`true`}
    order by s.client_id, s.kind`);
  return rows.rows;
}

export async function saveSchedule(db: Exec, clientId: string, kind: string, dayOfMonth: number, active: boolean, by: string) {
  await db.execute(sql`
    insert into deadlines.job_schedules (client_id, kind, day_of_month, active, updated_by) values (${clientId}, ${kind}, ${dayOfMonth}, ${active}, ${by})
    on conflict (client_id, kind) do update set day_of_month = excluded.day_of_month, active = excluded.active, updated_by = excluded.updated_by, updated_at = now()`);
}

// --- reports of delivery

/** Deadlines due in [from, to] per month: filed on or before the due date, filed after it, still open and passed. */
export async function deadlinesMetByMonth(db: Exec, from: IsoDate, to: IsoDate, today: IsoDate) {
  const rows = await db.execute<{ month: string; on_time: number; late: number; open_overdue: number }>(sql`
    select to_char(d.due_on, 'YYYY-MM') as month,
      count(*) filter (where d.done_at is not null and coalesce(d.filed_on, d.done_at::date) <= d.due_on)::int as on_time,
      count(*) filter (where d.done_at is not null and coalesce(d.filed_on, d.done_at::date) > d.due_on)::int as late,
      count(*) filter (where d.done_at is null and d.due_on < ${today})::int as open_overdue
    from deadlines.deadlines d where d.due_on between ${from} and ${to} and not d.filed_by_previous_agent
    group by 1 order by 1`);
  return rows.rows;
}

export async function openJobsByStage(db: Exec) {
  const rows = await db.execute<{ kind: JobKind; stage: string; jobs: number }>(sql`
    select j.kind, j.stage, count(*)::int as jobs from deadlines.jobs j where j.status = 'open' group by 1, 2 order by 1, 2`);
  return rows.rows;
}

/** Average days a job spent in each stage it left (from the stage history), moves counted. */
export async function daysPerStage(db: Exec) {
  const rows = await db.execute<{ stage: string; average_days: number; moves: number }>(sql`
    select stage, round(avg(extract(epoch from (left_at - entered_at)) / 86400)::numeric, 1)::float8 as average_days, count(*)::int as moves
    from (
      select h.stage, h.entered_at, lead(h.entered_at) over (partition by h.job_id order by h.entered_at, h.id) as left_at
      from deadlines.job_stage_history h
    ) x where left_at is not null group by stage order by stage`);
  return rows.rows;
}

export async function workInProgress(db: Exec, today: IsoDate) {
  const rows = await db.execute<{
    user_id: string | null;
    name: string;
    jobs: number;
    budget_minutes: number;
    used_minutes: number;
    overdue: number;
  }>(sql`
    select j.assignee_id as user_id, coalesce(s.name, 'Unassigned') as name, count(*)::int as jobs, sum(j.budget_minutes)::int as budget_minutes,
      sum(j.used_minutes)::int as used_minutes, count(*) filter (where j.due_on < ${today})::int as overdue
    from deadlines.jobs j left join deadlines.job_staff s on s.user_id = j.assignee_id
    where j.status = 'open' group by j.assignee_id, s.name order by jobs desc, name`);
  return rows.rows;
}

// --- client requests tied to a deadline (requests' events)

/** The job of a deadline counts its open requests again (so a repeated or out-of-order event cannot leave it off by one). */
const recountOpenRequests = (db: Exec, deadlineId: SQL | string) =>
  db.execute(sql`update deadlines.jobs j set open_requests = (select count(*)::int from deadlines.job_requests q where q.deadline_id = j.deadline_id and q.open)
    where j.deadline_id = ${deadlineId}`);

export async function requestOpened(db: Exec, r: { requestId: string; clientId: string; deadlineId: string; title: string }) {
  await db.execute(sql`insert into deadlines.job_requests (request_id, client_id, deadline_id, title) values (${r.requestId}, ${r.clientId}, ${r.deadlineId}, ${r.title})
    on conflict (request_id) do nothing`);
  await recountOpenRequests(db, r.deadlineId);
}

export async function requestCompleted(db: Exec, requestId: string) {
  await db.execute(sql`update deadlines.job_requests set open = false, updated_at = now() where request_id = ${requestId}`);
  await recountOpenRequests(db, sql`(select deadline_id from deadlines.job_requests where request_id = ${requestId})`);
}
