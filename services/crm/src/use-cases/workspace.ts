import { AppError, enqueueEvent, type Principal } from '@countinghouse/kit';
import {
  canSeeClient,
  clientVisibility,
  hasPermission,
  IDENTIFIER_VALIDATORS,
  validateSicCode,
  workBucket,
  workHorizon,
  WORKSPACE_MESSAGES,
  type CheckedIdentifier,
  type ClientIdentifiersInput,
  type ClientRecord,
  type NoteInput,
  type TaskActionReply,
  type TimelineQuery,
  type TimelineReply,
  type WorkQuery,
  type WorkReply,
} from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { getClient } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import {
  countTimeline,
  insertTimelineEntry,
  listTimeline,
  openTaskCount,
  readIdentifiers,
  readSignals,
  setTaskStatus,
  taskForAction,
  toIdentifiers,
  toTimelineEntry,
  workTasks,
  writeIdentifiers,
} from '../db/workspace.js';
import { actorOf, type CrmDeps } from './deps.js';

const londonDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });
/** Today in London (the practice's day). */
export const londonToday = () => londonDay.format(new Date());

const nameOf = (p: Principal) => p.name || p.id;

/**
 * The client a staff-side person opens: 404 when there is none, 403 when it is another accountant's
 * (clientVisibility, the one rule of who sees which clients).
 */
export async function visibleClient(deps: CrmDeps, p: Principal, clientId: string) {
  const v = clientVisibility(p);
  if (!v) throw new AppError('FORBIDDEN', WORKSPACE_MESSAGES.notYourClient);
  const client = await getClient(deps.db, clientId);
  if (!client) throw new AppError('NOT_FOUND', WORKSPACE_MESSAGES.clientNotFound);
  if (!canSeeClient(v, client.assigned_accountant_id)) throw new AppError('FORBIDDEN', WORKSPACE_MESSAGES.notYourClient);
  return client;
}

export async function getClientRecord(deps: CrmDeps, p: Principal, clientId: string): Promise<ClientRecord> {
  const c = await visibleClient(deps, p, clientId);
  // Opening the client record is audited (issue 34): who, when, from where.
  await enqueueEvent(
    deps.db,
    SCHEMA,
    'crm.record_viewed',
    { clientId, record: 'client_record', recordId: null, label: c.company_name },
    { actor: actorOf(p), key: clientId },
  );
  const [identifiers, badges, openTasks, entries] = await Promise.all([
    readIdentifiers(deps.db, clientId),
    readSignals(deps.db, clientId),
    openTaskCount(deps.db, clientId),
    countTimeline(deps.db, clientId),
  ]);
  return {
    client: {
      id: c.id,
      company_name: c.company_name,
      contact_name: c.contact_name,
      contact_email: c.contact_email,
      contact_phone: c.contact_phone,
      business_type: c.business_type,
      subscription_status: c.subscription_status,
      package_name: c.package_name,
      monthly_fee: c.monthly_fee,
      assigned_accountant_id: c.assigned_accountant_id,
      assigned_accountant_name: c.assigned_accountant_name,
      registration_date: c.registration_date,
    },
    identifiers: toIdentifiers(identifiers),
    badges,
    counts: { open_tasks: openTasks, timeline_entries: entries },
    can: {
      edit: p.kind === 'admin' || hasPermission(p.roles, 'clients.edit'),
      add_note: p.kind === 'admin' || hasPermission(p.roles, 'clients.notes'),
    },
  };
}

const blankToNull = (s: string | null) => (s === null || s.trim() === '' ? null : s);

/** Validate every identifier (each with its own message), then store them normalised. */
export async function saveIdentifiers(deps: CrmDeps, p: Principal, clientId: string, input: ClientIdentifiersInput) {
  await visibleClient(deps, p, clientId);
  const problems: Array<{ path: string; message: string }> = [];
  const values: Partial<Record<CheckedIdentifier, string | null>> = {};
  for (const key of ['utr', 'vat_number', 'paye_reference', 'accounts_office_reference', 'nino'] as const) {
    const raw = blankToNull(input[key]);
    if (raw === null) {
      values[key] = null;
      continue;
    }
    const r = IDENTIFIER_VALIDATORS[key](raw);
    if (r.ok) values[key] = r.value;
    else problems.push({ path: `/${key}`, message: r.message });
  }
  const sic: string[] = [];
  input.sic_codes.forEach((code, i) => {
    if (code.trim() === '') return;
    const r = validateSicCode(code);
    if (r.ok) sic.push(r.value);
    else problems.push({ path: `/sic_codes/${i}`, message: r.message });
  });
  if (problems.length) throw new AppError('VALIDATION_FAILED', problems[0]!.message, problems);
  const row = await writeIdentifiers(deps.db, {
    clientId,
    utr: values.utr ?? null,
    vatNumber: values.vat_number ?? null,
    payeReference: values.paye_reference ?? null,
    accountsOfficeReference: values.accounts_office_reference ?? null,
    nino: values.nino ?? null,
    registeredOffice: blankToNull(input.registered_office)?.trim() ?? null,
    sicCodes: [...new Set(sic)],
    updatedAt: new Date(),
    updatedById: p.id,
    updatedByName: nameOf(p),
  });
  return { identifiers: toIdentifiers(row), message: WORKSPACE_MESSAGES.identifiersSaved };
}

function parseCursor(c: string | undefined): { at: Date; id: number } | undefined {
  if (!c) return undefined;
  const [at, id] = c.split('|');
  const d = new Date(at ?? '');
  const n = Number(id);
  if (Number.isNaN(d.getTime()) || !Number.isInteger(n)) throw new AppError('BAD_REQUEST', 'The page cursor is not valid');
  return { at: d, id: n };
}

export async function findTimeline(deps: CrmDeps, p: Principal, clientId: string, q: TimelineQuery): Promise<TimelineReply> {
  await visibleClient(deps, p, clientId);
  const rows = await listTimeline(deps.db, clientId, { before: parseCursor(q.before), limit: q.limit });
  const last = rows.at(-1);
  return {
    entries: rows.map(toTimelineEntry),
    next_cursor: rows.length === q.limit && last ? `${last.at.toISOString()}|${last.id}` : null,
  };
}

export async function addNote(deps: CrmDeps, p: Principal, clientId: string, input: NoteInput) {
  await visibleClient(deps, p, clientId);
  const row = await insertTimelineEntry(deps.db, {
    sourceId: `note:${randomUUID()}`,
    clientId,
    kind: 'note',
    at: new Date(),
    summary: input.text.trim(),
    actorName: nameOf(p),
    source: 'crm',
  });
  return { entry: toTimelineEntry(row!), message: WORKSPACE_MESSAGES.noteAdded };
}

/**
 * Complete or reopen a task: staff any; an accountant the tasks assigned to them or about their
 * clients (403 otherwise). Completing announces crm.task_done (the client's Timeline).
 */
export async function changeTaskStatus(deps: CrmDeps, p: Principal, taskId: string, to: 'completed' | 'pending'): Promise<TaskActionReply> {
  const v = clientVisibility(p);
  if (!v) throw new AppError('FORBIDDEN', WORKSPACE_MESSAGES.notYourTask);
  return deps.db.transaction(async (tx) => {
    const found = await taskForAction(tx, taskId);
    if (!found) throw new AppError('NOT_FOUND', WORKSPACE_MESSAGES.taskNotFound);
    const { t } = found;
    if (!v.all && t.assigneeId !== v.accountantId && found.accountantId !== v.accountantId)
      throw new AppError('FORBIDDEN', WORKSPACE_MESSAGES.notYourTask);
    const message = to === 'completed' ? WORKSPACE_MESSAGES.taskCompleted : WORKSPACE_MESSAGES.taskReopened;
    if (t.status === to) return { task_id: t.id, status: to, message };
    await setTaskStatus(tx, t.id, to);
    if (to === 'completed')
      await enqueueEvent(
        tx,
        SCHEMA,
        'crm.task_done',
        { taskId: t.id, clientId: t.clientId, title: t.title, doneByName: nameOf(p) },
        { actor: actorOf(p), key: t.clientId ?? t.id },
      );
    return { task_id: t.id, status: to, message };
  });
}

/** Who My work is about: 'everyone' needs work.everyone (an accountant asking gets 403). */
export function workWho(p: Principal, q: WorkQuery): 'mine' | 'everyone' {
  const who = q.who ?? 'mine';
  if (who === 'everyone' && !(p.kind === 'admin' || hasPermission(p.roles, 'work.everyone')))
    throw new AppError('FORBIDDEN', WORKSPACE_MESSAGES.everyoneNotAllowed);
  return who;
}

export async function findWorkTasks(deps: CrmDeps, p: Principal, q: WorkQuery): Promise<WorkReply> {
  const who = workWho(p, q);
  const today = deps.today?.() ?? londonToday();
  const v = clientVisibility(p);
  const rows = await workTasks(deps.db, { who, userId: p.id, accountant: Boolean(v && !v.all), horizon: workHorizon(today) });
  const items = rows
    .map((r) => ({ ...r, bucket: workBucket(r.due_on, today)! }))
    .sort((a, b) =>
      (a.bucket === 'overdue') === (b.bucket === 'overdue') ? a.due_on.localeCompare(b.due_on) : a.bucket === 'overdue' ? -1 : 1,
    );
  return { items, today, who };
}
