import { AppError, enqueueEvent, type DbOrTx, type Principal } from '@countinghouse/kit';
import {
  CLIENT_JOBS_MESSAGES as M,
  clientVisibility,
  FILED_STAGE,
  JOB_KIND_OF_DEADLINE,
  JOB_KIND_VALUES,
  REVIEW_STAGE,
  type CapacityQuery,
  type CapacityReply,
  type DeliveryReply,
  type JobBoard,
  type JobBoardQuery,
  type JobDetail,
  type JobKind,
  type JobList,
  type JobListQuery,
  type JobMoveInput,
  type JobPatch,
  type JobTemplate,
  type JobTemplateInput,
  type JobStaffPatch,
  type JobScheduleInput,
  type ProfitabilityReply,
  type TimeEntryInput,
} from '@countinghouse/proto';
import {
  addNote,
  addStageHistory,
  addTime,
  boardJobs,
  capacityJobs,
  daysPerStage,
  deadlinesMetByMonth,
  deadlinesWithoutJobs,
  openJobsByStage,
  workInProgress,
  monthFees,
  insertJob,
  jobById,
  jobNotes,
  jobTime,
  leaveBetween,
  listJobs,
  monthTime,
  patchStaff,
  pickReviewer,
  readTimer,
  replaceLeave,
  saveSchedule,
  saveTemplate,
  schedules as scheduleRows,
  staffRows,
  startTimer,
  takeTimer,
  templateRows,
  toSummary,
  updateJob,
  type JobRow,
  type JobScope,
  type TimeRow,
} from '../db/job-queries.js';
import { deadlineById, directoryEntry, markDone, type Exec } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { addDays } from '../domain/dates.js';
import {
  capacityWeeks,
  DEFAULT_TEMPLATES,
  internalTarget,
  monthRange,
  nextOccurrence,
  profitability,
  teamWeeks,
  templateName,
  validStages,
  weekStart,
} from '../domain/jobs.js';
import type { DeadlinesDeps } from './deps.js';

const SYSTEM = { kind: 'system' as const, id: null };
const BATCH = 200;
const actorOf = (p: Principal) => ({ kind: p.kind === 'admin' ? ('admin' as const) : ('user' as const), id: p.id });
const nameOf = (p: Principal) => p.name || p.id;

/** Which clients' jobs the caller sees (proto's one rule): staff every client, an accountant theirs. */
export function jobScope(p: Principal): JobScope {
  const v = clientVisibility(p);
  if (!v) throw new AppError('FORBIDDEN', M.notYourClient);
  return v.all ? { all: true } : { all: false, accountantId: v.accountantId };
}

function mayTouch(scope: JobScope, row: JobRow) {
  if (!scope.all && row.assigned_accountant_id !== scope.accountantId) throw new AppError('FORBIDDEN', M.notYourClient);
}

async function visibleJob(db: Exec, p: Principal, id: string, forUpdate = false): Promise<JobRow> {
  const row = await jobById(db, id, { forUpdate });
  if (!row) throw new AppError('NOT_FOUND', M.jobNotFound);
  mayTouch(jobScope(p), row);
  return row;
}

// --- templates

export async function templates(db: Exec): Promise<Map<JobKind, JobTemplate>> {
  const saved = new Map((await templateRows(db)).map((r) => [r.kind, r]));
  return new Map(
    JOB_KIND_VALUES.map((kind) => {
      const s = saved.get(kind);
      const t: JobTemplateInput = s
        ? {
            stages: s.stages,
            budget_minutes: s.budget_minutes,
            reviewer_role: s.reviewer_role,
            lead_days: s.lead_days,
            target_days_before: s.target_days_before,
          }
        : DEFAULT_TEMPLATES[kind];
      return [kind, { kind, name: templateName(kind), ...t, customised: Boolean(s) }];
    }),
  );
}

export async function findTemplates(deps: DeadlinesDeps) {
  return { templates: [...(await templates(deps.db)).values()] };
}

export async function changeTemplate(deps: DeadlinesDeps, p: Principal, kind: JobKind, input: JobTemplateInput) {
  const stages = input.stages.map((s) => ({ name: s.name.trim(), checklist: s.checklist.map((c) => c.trim()).filter(Boolean) }));
  if (!validStages(stages)) throw new AppError('VALIDATION_FAILED', M.lastStageFiled, [{ path: '/stages', message: M.lastStageFiled }]);
  await saveTemplate(deps.db, kind, { ...input, stages }, p.id);
  return { template: (await templates(deps.db)).get(kind)!, message: M.templateSaved };
}

function checklistOf(t: JobTemplate) {
  return t.stages.flatMap((s) => s.checklist.map((item) => ({ stage: s.name, item, done: false, doneBy: null, doneByName: null })));
}

// --- the daily run

/**
 * Open one job per open deadline entering its kind's lead time: the template's stages and budget, due on
 * the internal target, assigned to the client's accountant. The unique index on deadline_id makes a
 * second run (or a retry) open nothing.
 */
export async function openJobsFromDeadlines(deps: DeadlinesDeps, today: string): Promise<number> {
  const all = await templates(deps.db);
  const leads = Object.entries(JOB_KIND_OF_DEADLINE).map(([deadlineKind, jobKind]) => ({
    kind: deadlineKind,
    leadDays: all.get(jobKind)!.lead_days,
  }));
  let opened = 0;
  for (;;) {
    const rows = await deadlinesWithoutJobs(deps.db, today, leads, BATCH);
    for (const d of rows) {
      const kind = JOB_KIND_OF_DEADLINE[d.kind]!;
      const t = all.get(kind)!;
      const dueOn = internalTarget(d.due_on, t.target_days_before, today);
      const ok = await deps.db.transaction(async (tx) => {
        const title = `${t.name}: ${d.company_name}, ${d.period}`.slice(0, 200);
        const id = await insertJob(
          tx,
          {
            clientId: d.client_id,
            deadlineId: d.id,
            kind,
            title,
            period: d.period,
            stages: t.stages.map((s) => s.name),
            checklist: checklistOf(t),
            statutoryDueOn: d.due_on,
            dueOn,
            assigneeId: d.assigned_accountant_id,
            reviewerRole: t.reviewer_role,
            budgetMinutes: t.budget_minutes,
          },
          { id: null, name: 'Daily run' },
        );
        if (!id) return false;
        await enqueueEvent(
          tx,
          SCHEMA,
          'deadlines.job_opened',
          { jobId: id, clientId: d.client_id, kind, title, dueOn, deadlineId: d.id, assigneeId: d.assigned_accountant_id },
          { actor: SYSTEM, key: d.client_id },
        );
        return true;
      });
      if (ok) opened++;
    }
    // A row that lost the race leaves no job either way; the next page starts after what was read.
    if (rows.length < BATCH) break;
  }
  return opened;
}

/**
 * Recurring work without a statutory deadline (bookkeeping monthly, payroll each pay period): each active
 * schedule's next occurrence opens a job once it is within the template's lead days; the unique
 * recurring key (client:kind:due date) makes a second run open nothing.
 */
export async function openRecurringJobs(deps: DeadlinesDeps, today: string): Promise<number> {
  const all = await templates(deps.db);
  let opened = 0;
  for (const s of await scheduleRows(deps.db, { activeOnly: true })) {
    const t = all.get(s.kind)!;
    const dueOn = nextOccurrence(today, s.day_of_month);
    if (dueOn > addDays(today, t.lead_days)) continue;
    const ok = await deps.db.transaction(async (tx) => {
      const title = `${t.name}: ${s.company_name}, due ${dueOn}`.slice(0, 200);
      const id = await insertJob(
        tx,
        {
          clientId: s.client_id,
          deadlineId: null,
          recurringKey: `${s.client_id}:${s.kind}:${dueOn}`,
          kind: s.kind,
          title,
          period: dueOn.slice(0, 7),
          stages: t.stages.map((x) => x.name),
          checklist: checklistOf(t),
          statutoryDueOn: null,
          dueOn,
          assigneeId: s.assigned_accountant_id,
          reviewerRole: t.reviewer_role,
          budgetMinutes: t.budget_minutes,
        },
        { id: null, name: 'Daily run' },
      );
      if (!id) return false;
      await enqueueEvent(
        tx,
        SCHEMA,
        'deadlines.job_opened',
        { jobId: id, clientId: s.client_id, kind: s.kind, title, dueOn, deadlineId: null, assigneeId: s.assigned_accountant_id },
        { actor: SYSTEM, key: s.client_id },
      );
      return true;
    });
    if (ok) opened++;
  }
  return opened;
}

async function visibleClientOf(db: Exec, p: Principal, clientId: string) {
  const entry = await directoryEntry(db, clientId);
  if (!entry) throw new AppError('NOT_FOUND', M.clientNotFound);
  const scope = jobScope(p);
  if (!scope.all && entry.assignedAccountantId !== scope.accountantId) throw new AppError('FORBIDDEN', M.notYourClient);
}

export async function findSchedules(deps: DeadlinesDeps, p: Principal, clientId: string) {
  await visibleClientOf(deps.db, p, clientId);
  const today = deps.today();
  return {
    schedules: (await scheduleRows(deps.db, { clientId })).map((s) => ({
      client_id: s.client_id,
      kind: s.kind,
      day_of_month: s.day_of_month,
      active: s.active,
      next_due_on: nextOccurrence(today, s.day_of_month),
    })),
  };
}

export async function changeSchedule(
  deps: DeadlinesDeps,
  p: Principal,
  clientId: string,
  kind: 'bookkeeping' | 'payroll_run',
  input: JobScheduleInput,
) {
  await visibleClientOf(deps.db, p, clientId);
  await saveSchedule(deps.db, clientId, kind, input.day_of_month, input.active, p.id);
  return findSchedules(deps, p, clientId);
}

// --- reading

export async function findJobs(deps: DeadlinesDeps, p: Principal, q: JobListQuery): Promise<JobList> {
  const today = deps.today();
  const assignee = q.mine ? p.id : (q.assignee_id ?? null);
  const { rows, total, capped } = await listJobs(deps.db, jobScope(p), { ...q, assignee }, today);
  return { jobs: rows.map((r) => toSummary(r, today)), total, total_capped: capped, page: q.page, page_size: q.page_size, today };
}

export async function findBoard(deps: DeadlinesDeps, p: Principal, q: JobBoardQuery): Promise<JobBoard> {
  const today = deps.today();
  const t = (await templates(deps.db)).get(q.kind)!;
  const rows = await boardJobs(deps.db, jobScope(p), q.kind, q.mine ? p.id : (q.assignee_id ?? null), 50);
  // Columns: the template's stages, then any stage an older job still sits in (a template edited since).
  const names = [...t.stages.map((s) => s.name)];
  for (const r of rows) if (!names.includes(r.stage)) names.splice(names.length - 1, 0, r.stage);
  return {
    kind: q.kind,
    columns: names
      .filter((n) => n !== FILED_STAGE)
      .map((stage) => {
        const jobs = rows.filter((r) => r.stage === stage);
        return { stage, total: jobs[0]?.n ?? 0, jobs: jobs.map((r) => toSummary(r, today)) };
      }),
    today,
  };
}

const toEntry = (r: TimeRow) => ({ ...r, note: r.note ?? null });

export async function getJob(deps: DeadlinesDeps, p: Principal, id: string): Promise<JobDetail> {
  const today = deps.today();
  const row = await visibleJob(deps.db, p, id);
  const [notes, time, deadline] = await Promise.all([
    jobNotes(deps.db, id),
    jobTime(deps.db, id),
    row.deadline_id ? deadlineById(deps.db, row.deadline_id, today) : Promise.resolve(null),
  ]);
  const d = deadline?.deadline;
  return {
    job: toSummary(row, today),
    stages: row.stages,
    checklist: row.checklist.map((c) => ({ stage: c.stage, item: c.item, done: c.done, done_by_name: c.doneByName })),
    notes,
    time: time.map(toEntry),
    deadline: d
      ? { id: d.id, kind: d.kind, period: d.period, due_on: d.due_on, done: d.status === 'done', reference: d.reference ?? null }
      : null,
    filed_on: row.filed_on,
    reference: row.reference,
    today,
  };
}

// --- changing

/**
 * Move a job to a stage. Entering Review assigns the reviewer (the one named, or the template's role's
 * least-loaded member of staff); entering Filed needs the filing reference (for a job from a deadline)
 * and marks the deadline done with the date, reference and who, in the same transaction.
 */
export async function moveJob(deps: DeadlinesDeps, p: Principal, id: string, input: JobMoveInput) {
  const today = deps.today();
  const by = { id: p.id, name: nameOf(p) };
  await deps.db.transaction(async (tx) => {
    const row = await visibleJob(tx, p, id, true);
    if (row.status === 'filed') throw new AppError('CONFLICT', M.alreadyFiled);
    const index = row.stages.indexOf(input.stage);
    if (index < 0) throw new AppError('VALIDATION_FAILED', M.unknownStage, [{ path: '/stage', message: M.unknownStage }]);
    if (index === row.stage_index) return;
    let reviewerId = row.reviewer_id;
    if (input.stage === REVIEW_STAGE)
      reviewerId = input.reviewer_id ?? (await pickReviewer(tx, row.reviewer_role, row.assignee_id)) ?? reviewerId;
    if (input.stage === FILED_STAGE) {
      const reference = input.reference?.trim() || null;
      if (row.deadline_id && !reference)
        throw new AppError('VALIDATION_FAILED', M.referenceRequired, [{ path: '/reference', message: M.referenceRequired }]);
      const filedOn = input.filed_on ?? today;
      if (filedOn > today)
        throw new AppError('VALIDATION_FAILED', 'The filing date cannot be in the future', [
          { path: '/filed_on', message: 'The filing date cannot be in the future' },
        ]);
      await updateJob(tx, id, { stageIndex: index, stage: input.stage, status: 'filed', filedOn, reference, reviewerId });
      if (row.deadline_id) {
        const found = await deadlineById(tx, row.deadline_id, today, { forUpdate: true });
        const doneAt = found ? await markDone(tx, row.deadline_id, by, { filedOn, reference, previousAgent: false }) : null;
        if (found && doneAt)
          await enqueueEvent(
            tx,
            SCHEMA,
            'deadlines.deadline_done',
            {
              deadlineId: found.deadline.id,
              clientId: found.deadline.client_id,
              kind: found.deadline.kind,
              period: found.deadline.period,
              dueOn: found.deadline.due_on,
              doneAt: doneAt.toISOString(),
              doneByName: by.name,
              filedOn,
              reference,
              filedByPreviousAgent: false,
            },
            { actor: actorOf(p), key: found.deadline.client_id },
          );
      }
      await enqueueEvent(
        tx,
        SCHEMA,
        'deadlines.job_filed',
        { jobId: id, clientId: row.client_id, kind: row.kind, deadlineId: row.deadline_id, filedOn, reference, byName: by.name },
        { actor: actorOf(p), key: row.client_id },
      );
    } else {
      await updateJob(tx, id, { stageIndex: index, stage: input.stage, reviewerId });
    }
    await addStageHistory(tx, id, input.stage, by);
    await enqueueEvent(
      tx,
      SCHEMA,
      'deadlines.job_stage_moved',
      { jobId: id, clientId: row.client_id, from: row.stage, to: input.stage, reviewerId, byName: by.name },
      { actor: actorOf(p), key: row.client_id },
    );
  });
  return getJob(deps, p, id);
}

export async function changeJob(deps: DeadlinesDeps, p: Principal, id: string, patch: JobPatch) {
  await deps.db.transaction(async (tx) => {
    await visibleJob(tx, p, id, true);
    await updateJob(tx, id, { assigneeId: patch.assignee_id, waitingOnClient: patch.waiting_on_client, dueOn: patch.due_on });
  });
  return getJob(deps, p, id);
}

export async function tickChecklist(deps: DeadlinesDeps, p: Principal, id: string, index: number, done: boolean) {
  await deps.db.transaction(async (tx) => {
    const row = await visibleJob(tx, p, id, true);
    const item = row.checklist[index];
    if (!item) throw new AppError('NOT_FOUND', M.checklistItemNotFound);
    const checklist = row.checklist.map((c, i) =>
      i === index ? { ...c, done, doneBy: done ? p.id : null, doneByName: done ? nameOf(p) : null } : c,
    );
    await updateJob(tx, id, { checklist });
  });
  return getJob(deps, p, id);
}

export async function addJobNote(deps: DeadlinesDeps, p: Principal, id: string, text: string) {
  await deps.db.transaction(async (tx) => {
    await visibleJob(tx, p, id, true);
    await addNote(tx, id, text.trim(), { id: p.id, name: nameOf(p) });
  });
  return getJob(deps, p, id);
}

async function record(
  tx: DbOrTx,
  p: Principal,
  row: JobRow,
  minutes: number,
  workedOn: string,
  note: string | null,
  source: 'manual' | 'timer',
) {
  const entry = await addTime(tx, {
    jobId: row.id,
    clientId: row.client_id,
    userId: p.id,
    userName: nameOf(p),
    minutes,
    workedOn,
    note,
    source,
  });
  await enqueueEvent(
    tx,
    SCHEMA,
    'deadlines.time_recorded',
    { entryId: entry.id, jobId: row.id, clientId: row.client_id, userId: p.id, minutes, workedOn },
    { actor: actorOf(p), key: row.client_id },
  );
  return entry;
}

export async function recordTime(deps: DeadlinesDeps, p: Principal, id: string, input: TimeEntryInput) {
  const today = deps.today();
  if (input.worked_on > today)
    throw new AppError('VALIDATION_FAILED', 'Time cannot be recorded for a future day', [
      { path: '/worked_on', message: 'Time cannot be recorded for a future day' },
    ]);
  const entry = await deps.db.transaction(async (tx) => {
    const row = await visibleJob(tx, p, id, true);
    return record(tx, p, row, input.minutes, input.worked_on, input.note?.trim() || null, 'manual');
  });
  return { entry: toEntry(entry) };
}

export async function getTimer(deps: DeadlinesDeps, p: Principal) {
  const t = await readTimer(deps.db, p.id);
  return { timer: t ? { job_id: t.job_id, started_at: t.started_at, title: t.title } : null };
}

export async function startJobTimer(deps: DeadlinesDeps, p: Principal, id: string) {
  await deps.db.transaction(async (tx) => {
    await visibleJob(tx, p, id);
    if (!(await startTimer(tx, p.id, nameOf(p), id))) throw new AppError('CONFLICT', M.timerRunning);
  });
  return getTimer(deps, p);
}

/** Stop my timer: the minutes since it started (rounded up, at least one) become a time entry today. */
export async function stopJobTimer(deps: DeadlinesDeps, p: Principal) {
  const entry = await deps.db.transaction(async (tx) => {
    const t = await takeTimer(tx, p.id);
    if (!t) throw new AppError('NOT_FOUND', M.noTimer);
    const row = await jobById(tx, t.job_id, { forUpdate: true });
    if (!row) throw new AppError('NOT_FOUND', M.jobNotFound);
    return record(tx, p, row, Math.min(24 * 60, Math.max(1, t.minutes)), deps.today(), null, 'timer');
  });
  return { entry: toEntry(entry) };
}

// --- staff, capacity, profitability

export async function findStaff(deps: DeadlinesDeps) {
  return { staff: await staffRows(deps.db, deps.today()) };
}

export async function changeStaff(deps: DeadlinesDeps, userId: string, patch: JobStaffPatch) {
  const today = deps.today();
  await deps.db.transaction(async (tx) => {
    await patchStaff(
      tx,
      userId,
      { name: patch.name, costRatePence: patch.cost_rate_pence, weeklyCapacityMinutes: patch.weekly_capacity_minutes },
      userId,
    );
    if (patch.leave) await replaceLeave(tx, userId, today, patch.leave);
  });
  const [row] = await staffRows(deps.db, today, userId);
  return { member: row! };
}

/**
 * The 12-week view: per person, hours budgeted on open jobs due in each week against weekly capacity
 * less leave, and the team's sums. An accountant sees only their own row.
 */
export async function findCapacity(deps: DeadlinesDeps, p: Principal, q: CapacityQuery): Promise<CapacityReply> {
  const first = weekStart(q.from ?? deps.today());
  const last = addDays(first, 7 * q.weeks - 1);
  const onlyMe = clientVisibility(p)?.all ? q.user_id : p.id;
  const [people, jobs, leave] = await Promise.all([
    staffRows(deps.db, first, onlyMe),
    capacityJobs(deps.db, first, last, onlyMe),
    leaveBetween(deps.db, first, last),
  ]);
  const weeks = Array.from({ length: q.weeks }, (_, i) => addDays(first, 7 * i));
  const rows = people.map((s) => ({
    user_id: s.user_id,
    name: s.name,
    weeks: capacityWeeks({
      from: first,
      weeks: q.weeks,
      weeklyCapacityMinutes: s.weekly_capacity_minutes,
      leave: leave.filter((l) => l.user_id === s.user_id).map((l) => l.day),
      jobs: jobs.filter((j) => j.assignee_id === s.user_id).map((j) => ({ dueOn: j.due_on, budgetMinutes: j.budget_minutes })),
    }),
  }));
  return {
    weeks,
    people: rows,
    team: teamWeeks(
      rows.map((r) => r.weeks),
      weeks,
    ),
  };
}

/**
 * Per client and per package for a month: the monthly fee (crm's client record, which billing's
 * subscription sets) against the time recorded in the month at each person's cost rate.
 */
export async function findProfitability(deps: DeadlinesDeps, month: string): Promise<ProfitabilityReply> {
  const [from, to] = monthRange(month);
  const time = await monthTime(deps.db, from, to);
  const clients = await monthFees(deps.db, from, to, [...new Set(time.map((t) => t.client_id))]);
  const rows = clients
    .map((c) => {
      const fee = c.monthly_fee_pence ?? 0;
      const out = profitability({
        feePence: fee,
        time: time.filter((t) => t.client_id === c.client_id).map((t) => ({ minutes: t.minutes, ratePence: t.rate_pence })),
      });
      return { client_id: c.client_id, client_name: c.company_name, package_name: c.package_name, fee_pence: fee, ...out };
    })
    .sort((a, b) => a.margin_pence - b.margin_pence || a.client_name.localeCompare(b.client_name));
  const byPackage = new Map<string | null, { fee: number; minutes: number; cost: number }>();
  for (const r of rows) {
    const acc = byPackage.get(r.package_name) ?? { fee: 0, minutes: 0, cost: 0 };
    byPackage.set(r.package_name, { fee: acc.fee + r.fee_pence, minutes: acc.minutes + r.minutes, cost: acc.cost + r.cost_pence });
  }
  const packages = [...byPackage.entries()].map(([package_name, a]) => ({
    package_name,
    fee_pence: a.fee,
    minutes: a.minutes,
    cost_pence: a.cost,
    margin_pence: a.fee - a.cost,
    effective_rate_pence: a.minutes > 0 ? Math.round((a.fee * 60) / a.minutes) : null,
  }));
  return { month, clients: rows, packages };
}

/** Reports of delivery for the months from..to (YYYY-MM): deadlines on time vs late, jobs by stage, days per stage, work in progress. */
export async function findDelivery(deps: DeadlinesDeps, from: string, to: string): Promise<DeliveryReply> {
  if (from > to)
    throw new AppError('VALIDATION_FAILED', 'The first month must not be after the last', [
      { path: '/from', message: 'The first month must not be after the last' },
    ]);
  const today = deps.today();
  const [months, byStage, perStage, wip] = await Promise.all([
    deadlinesMetByMonth(deps.db, monthRange(from)[0], monthRange(to)[1], today),
    openJobsByStage(deps.db),
    daysPerStage(deps.db),
    workInProgress(deps.db, today),
  ]);
  return { months, by_stage: byStage, days_per_stage: perStage, work_in_progress: wip };
}
