import {
  clientDirectoryEntry,
  upsertClientDirectory,
  type ClientDirectoryInsert,
  type ClientScope,
  type Db,
  type DbOrTx,
} from '@countinghouse/kit';
import {
  TaxProfileDefaults,
  type CompanySnapshot,
  type Deadline,
  type DeadlineKind,
  type DeadlineListQuery,
  type IdentityPerson,
  type TaxProfileInput,
} from '@countinghouse/proto';
import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { addDays, type IsoDate } from '../domain/dates.js';
import type { ComputedDeadline } from '../domain/engine.js';
import type { StoredDeadline } from '../domain/reconcile.js';
import { deadlineStatus } from '../domain/status.js';
import {
  calendarTokens,
  clientDirectory,
  companyCache,
  deadlineChanges,
  deadlines,
  deadlineSettings,
  identityPeople,
  identityPracticeVerifications,
  mtdObligations,
  taxProfiles,
} from './schema.js';
import type { MtdObligationFact } from '../domain/mtd-obligations.js';
import type { IdvRule, PracticeVerification } from '../domain/identity-verification.js';

export type Exec = Pick<Db, 'execute' | 'select' | 'insert' | 'update' | 'delete'>;

export type DirectoryRow = typeof clientDirectory.$inferSelect;

/**
 * Apply crm.client_upserted (`at`: its occurredAt) to the directory: the kit's upsertClientDirectory (the
 * newest event wins; a known business type is kept when the event has none; updated_at is the
 * database's now()), then the fee history and the accountant copied onto the client's rows.
 */
export async function upsertDirectory(db: DbOrTx, e: ClientDirectoryInsert<typeof clientDirectory>, at: string): Promise<boolean> {
  // The demo seed (seed-demo.ts) computes deadlines with the accountant the directory holds, under this
  // lock held exclusively: a directory change waits for it (and then copies its accountant onto the
  // seeded deadlines below), or goes first (and the seed then reads it). Without it, an event applied
  // while the seed ran left the seeded deadlines with no accountant: My work empty for a demo accountant.
  await db.execute(sql`select pg_advisory_xact_lock_shared(hashtext('deadlines-demo-seed'))`);
  const written = await upsertClientDirectory(db, clientDirectory, e, {
    businessType: sql`coalesce(excluded.business_type, deadlines.client_directory.business_type)`,
    updatedAt: sql`now()`,
  });
  if (e.monthlyFeePence !== undefined) await recordFee(db, e.clientId, at, e.packageName ?? null, e.monthlyFeePence, e.subscriptionStatus);
  // The accountant copied onto the client's deadlines follows the directory (only when this event won).
  await db.execute(sql`
    update deadlines.deadlines d set assigned_accountant_id = c.assigned_accountant_id
    from deadlines.client_directory c
    where c.client_id = ${e.clientId} and d.client_id = c.client_id and d.assigned_accountant_id is distinct from c.assigned_accountant_id`);
  await db.execute(sql`
    update deadlines.identity_people p set assigned_accountant_id = c.assigned_accountant_id
    from deadlines.client_directory c
    where c.client_id = ${e.clientId} and p.client_id = c.client_id and p.assigned_accountant_id is distinct from c.assigned_accountant_id`);
  return written;
}

/**
 * The client's fee history (client_fees): a row at `at` when the package, fee or status in effect then
 * differs; a client's first row holds from the beginning. Repeated or late events add nothing twice.
 */
async function recordFee(db: Exec, clientId: string, at: string, packageName: string | null, feePence: number | null, status: string) {
  await db.execute(sql`
    insert into deadlines.client_fees (client_id, effective_at, package_name, monthly_fee_pence, subscription_status)
    select ${clientId}, case when exists (select 1 from deadlines.client_fees where client_id = ${clientId}) then ${at}::timestamptz else '-infinity' end,
      ${packageName}, ${feePence}::int, ${status}
    where not exists (
      select 1 from (
        select f.package_name, f.monthly_fee_pence, f.subscription_status from deadlines.client_fees f
        where f.client_id = ${clientId} and f.effective_at <= ${at}::timestamptz order by f.effective_at desc limit 1
      ) cur
      where cur.package_name is not distinct from ${packageName} and cur.monthly_fee_pence is not distinct from ${feePence}::int
        and cur.subscription_status = ${status})
    on conflict (client_id, effective_at) do nothing`);
}

export async function directoryEntry(db: Exec, clientId: string): Promise<DirectoryRow | null> {
  return clientDirectoryEntry(db, clientDirectory, clientId);
}

export async function readProfile(db: Exec, clientId: string) {
  const rows = await db.select().from(taxProfiles).where(eq(taxProfiles.clientId, clientId));
  return rows[0] ?? null;
}

export function profileOf(row: { profile: TaxProfileInput } | null): TaxProfileInput {
  return { ...TaxProfileDefaults, ...(row?.profile ?? {}) };
}

export async function saveProfile(
  db: Exec,
  clientId: string,
  profile: TaxProfileInput,
  companyNumber: string | null,
  actor: { id: string; name: string },
): Promise<void> {
  await db
    .insert(taxProfiles)
    .values({ clientId, profile, companyNumber, updatedBy: actor.id, updatedByName: actor.name })
    .onConflictDoUpdate({
      target: taxProfiles.clientId,
      set: { profile, companyNumber, updatedAt: sql`now()`, updatedBy: actor.id, updatedByName: actor.name },
    });
}

export async function readCompany(db: Exec, clientId: string) {
  const rows = await db.select().from(companyCache).where(eq(companyCache.clientId, clientId));
  return rows[0] ?? null;
}

export async function saveCompany(
  db: Exec,
  clientId: string,
  companyNumber: string,
  snapshot: CompanySnapshot | null,
  error: string | null,
) {
  // A failed refresh keeps the last good answer and records why.
  await db
    .insert(companyCache)
    .values({ clientId, companyNumber, snapshot, error })
    .onConflictDoUpdate({
      target: companyCache.clientId,
      set: snapshot
        ? { companyNumber, snapshot, error: null, refreshedAt: sql`now()` }
        : {
            companyNumber,
            error,
            snapshot: sql`case when ${companyCache.companyNumber} = ${companyNumber} then ${companyCache.snapshot} else null end`,
          },
    });
}

export async function deleteCompany(db: Exec, clientId: string) {
  await db.delete(companyCache).where(eq(companyCache.clientId, clientId));
}

export async function storedDeadlines(db: Exec, clientId: string): Promise<Array<StoredDeadline & { kind: DeadlineKind }>> {
  const rows = await db
    .select({
      id: deadlines.id,
      key: deadlines.key,
      kind: deadlines.kind,
      dueOn: deadlines.dueOn,
      period: deadlines.period,
      periodEnd: deadlines.periodEnd,
      source: deadlines.source,
      doneAt: deadlines.doneAt,
    })
    .from(deadlines)
    .where(eq(deadlines.clientId, clientId));
  return rows;
}

export async function insertDeadlines(db: Exec, clientId: string, rows: ComputedDeadline[], accountantId: string | null) {
  if (rows.length === 0) return;
  await db
    .insert(deadlines)
    .values(
      rows.map((c) => ({
        clientId,
        assignedAccountantId: accountantId,
        key: c.key,
        kind: c.kind,
        period: c.period,
        periodEnd: c.periodEnd,
        dueOn: c.dueOn,
        source: c.source,
      })),
    )
    .onConflictDoNothing();
}

export async function updateDeadline(db: Exec, id: string, c: ComputedDeadline) {
  await db
    .update(deadlines)
    .set({ period: c.period, periodEnd: c.periodEnd, dueOn: c.dueOn, source: c.source, updatedAt: sql`now()` })
    .where(and(eq(deadlines.id, id), isNull(deadlines.doneAt)));
}

export async function removeDeadlines(db: Exec, ids: string[]) {
  if (ids.length) await db.delete(deadlines).where(and(inArray(deadlines.id, ids), isNull(deadlines.doneAt)));
}

export async function recordChanges(
  db: Exec,
  rows: Array<{ deadlineId: string; clientId: string; kind: DeadlineKind; period: string; fromDue: string; toDue: string; reason: string }>,
) {
  if (rows.length) await db.insert(deadlineChanges).values(rows);
}

interface ListRow extends Record<string, unknown> {
  id: string;
  client_id: string;
  company_name: string;
  assigned_accountant_id: string | null;
  kind: DeadlineKind;
  period: string;
  period_end: string | null;
  due_on: string;
  source: 'companies_house' | 'rule' | 'hmrc';
  done_at: Date | string | null;
  done_by_name: string | null;
  done_by: string | null;
  filed_on: string | null;
  reference: string | null;
  filed_by_previous_agent: boolean;
}

export function toDeadline(r: ListRow, today: IsoDate): Deadline {
  const doneAt = r.done_at ? new Date(r.done_at).toISOString() : null;
  return {
    id: r.id,
    client_id: r.client_id,
    client_name: r.company_name,
    assigned_accountant_id: r.assigned_accountant_id,
    kind: r.kind,
    period: r.period,
    period_end: r.period_end,
    due_on: r.due_on,
    status: deadlineStatus(r.due_on, doneAt, today),
    source: r.source,
    done_at: doneAt,
    done_by_name: r.done_by_name,
    done_by_id: r.done_by,
    filed_on: r.filed_on,
    reference: r.reference,
    filed_by_previous_agent: r.filed_by_previous_agent,
  };
}

const LIST_COLUMNS = sql`d.id, d.client_id, c.company_name, d.assigned_accountant_id, d.kind, d.period, d.period_end::text as period_end,
  d.due_on::text as due_on, d.source, d.done_at, d.done_by_name, d.done_by, d.filed_on::text as filed_on, d.reference, d.filed_by_previous_agent`;

function scopeFilter(scope: ClientScope): SQL | null {
  if (scope.all) return null;
  const owned = sql`d.client_id in (select client_id from deadlines.client_directory where user_id = ${scope.ownerUserId})`;
  return scope.accountantId ? sql`(d.assigned_accountant_id = ${scope.accountantId} or ${owned})` : owned;
}

/** Totals above this are shown as "10,000+": counting a whole quarter of a large practice costs more than the page. */
export const COUNT_CAP = 10_000;

/**
 * The practice's list. Open deadlines walk deadlines_open_due_idx in due-date order and join the
 * directory by primary key; the window bounds the range (docs/perf/deadlines.md has the plan).
 */
export async function listDeadlines(db: Exec, scope: ClientScope, q: DeadlineListQuery, today: IsoDate) {
  const where: SQL[] = [];
  const window = q.window ?? '90';
  const doneOnly = q.status === 'done';
  if (doneOnly) where.push(sql`d.done_at is not null`);
  else if (!q.include_done) where.push(sql`d.done_at is null`);
  if (window === 'overdue') where.push(sql`d.due_on < ${today}`, sql`d.done_at is null`);
  // Issue 26: what is overdue always shows, first (the earliest dates), in every window.
  else if (window !== 'all' && !doneOnly)
    where.push(sql`(d.due_on >= ${today} or d.done_at is null)`, sql`d.due_on <= ${addDays(today, Number(window))}`);
  if (q.kind) where.push(sql`d.kind = ${q.kind}`);
  if (q.client_id) where.push(sql`d.client_id = ${q.client_id}`);
  if (q.assignee_id === 'none') where.push(sql`d.assigned_accountant_id is null`);
  else if (q.assignee_id) where.push(sql`d.assigned_accountant_id = ${q.assignee_id}`);
  const s = scopeFilter(scope);
  if (s) where.push(s);
  const cond = where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``;
  const order = doneOnly
    ? sql`order by d.done_at desc, d.id desc`
    : window === 'overdue'
      ? sql`order by d.due_on desc, d.id desc`
      : q.include_done
        ? sql`order by (d.done_at is null and d.due_on < ${today}) desc, d.due_on, d.id`
        : sql`order by d.due_on, d.id`;
  const offset = (q.page - 1) * q.page_size;
  const [rows, total] = await Promise.all([
    db.execute<ListRow>(sql`select ${LIST_COLUMNS} from deadlines.deadlines d join deadlines.client_directory c on c.client_id = d.client_id
      ${cond} ${order} limit ${q.page_size} offset ${offset}`),
    // Every condition is on the deadline itself, so the count reads one partial index and stops at the cap.
    db.execute<{ n: number }>(sql`select count(*)::int as n from (select 1 from deadlines.deadlines d ${cond} limit ${COUNT_CAP + 1}) t`),
  ]);
  const n = total.rows[0]?.n ?? 0;
  return { deadlines: rows.rows.map((r) => toDeadline(r, today)), total: Math.min(n, COUNT_CAP), totalCapped: n > COUNT_CAP };
}

export async function clientDeadlines(db: Exec, clientId: string, today: IsoDate, opts: { limit?: number; openOnly?: boolean } = {}) {
  const rows =
    await db.execute<ListRow>(sql`select ${LIST_COLUMNS} from deadlines.deadlines d join deadlines.client_directory c on c.client_id = d.client_id
    where d.client_id = ${clientId} ${opts.openOnly ? sql`and d.done_at is null` : sql``}
      and (d.done_at is null or d.due_on >= ${addDays(today, -92)})
    order by d.due_on, d.id limit ${opts.limit ?? 500}`);
  return rows.rows.map((r) => toDeadline(r, today));
}

export async function deadlineById(db: Exec, id: string, today: IsoDate, opts: { forUpdate?: boolean } = {}) {
  const rows = await db.execute<ListRow & { user_id: string | null }>(sql`select ${LIST_COLUMNS}, c.user_id
    from deadlines.deadlines d join deadlines.client_directory c on c.client_id = d.client_id where d.id = ${id}
    ${opts.forUpdate ? sql`for update of d` : sql``}`);
  const r = rows.rows[0];
  return r ? { deadline: toDeadline(r, today), userId: r.user_id, accountantId: r.assigned_accountant_id } : null;
}

export async function markDone(
  db: Exec,
  id: string,
  actor: { id: string; name: string },
  filing: { filedOn: string; reference: string | null; previousAgent: boolean },
) {
  const rows = await db
    .update(deadlines)
    .set({
      doneAt: sql`now()`,
      doneBy: actor.id,
      doneByName: actor.name,
      filedOn: filing.filedOn,
      reference: filing.reference,
      filedByPreviousAgent: filing.previousAgent,
      updatedAt: sql`now()`,
    })
    .where(and(eq(deadlines.id, id), isNull(deadlines.doneAt)))
    .returning({ doneAt: deadlines.doneAt });
  return rows[0]?.doneAt ?? null;
}

/** Undo: the deadline is open again and its filing record cleared (the reopening is announced and on the Timeline). */
export async function markUndone(db: Exec, id: string): Promise<boolean> {
  const rows = await db
    .update(deadlines)
    .set({
      doneAt: null,
      doneBy: null,
      doneByName: null,
      filedOn: null,
      reference: null,
      filedByPreviousAgent: false,
      updatedAt: sql`now()`,
    })
    .where(and(eq(deadlines.id, id), sql`${deadlines.doneAt} is not null`))
    .returning({ id: deadlines.id });
  return rows.length > 0;
}

/** My work: open deadlines due up to `horizon` (overdue included), of every client or of one accountant's. */
export async function workDeadlines(db: Exec, q: { accountantId: string | null; horizon: IsoDate; today: IsoDate }) {
  const rows = await db.execute<ListRow>(sql`select ${LIST_COLUMNS}
    from deadlines.deadlines d join deadlines.client_directory c on c.client_id = d.client_id
    where d.done_at is null and d.due_on <= ${q.horizon}
      ${q.accountantId ? sql`and d.assigned_accountant_id = ${q.accountantId}` : sql``}
    order by d.due_on, d.id limit 500`);
  return rows.rows.map((r) => toDeadline(r, q.today));
}

/** Open deadlines due within [today, today + leadDays] whose task was not yet asked for at this due date. */
export async function deadlinesNeedingTasks(db: Exec, today: IsoDate, leadDays: number, limit: number) {
  const rows = await db.execute<ListRow & { task_requested_for: string | null }>(sql`select ${LIST_COLUMNS}
    from deadlines.deadlines d join deadlines.client_directory c on c.client_id = d.client_id
    where d.done_at is null and d.due_on >= ${today} and d.due_on <= ${addDays(today, leadDays)}
      and (d.task_requested_for is distinct from d.due_on)
    order by d.due_on, d.id limit ${limit}`);
  return rows.rows;
}

export async function markTaskRequested(db: Exec, id: string, dueOn: string): Promise<boolean> {
  const rows = await db
    .update(deadlines)
    .set({ taskRequestedFor: dueOn })
    .where(and(eq(deadlines.id, id), sql`${deadlines.taskRequestedFor} is distinct from ${dueOn}::date`, eq(deadlines.dueOn, dueOn)))
    .returning({ id: deadlines.id });
  return rows.length > 0;
}

export async function deadlinesNewlyOverdue(db: Exec, today: IsoDate, limit: number) {
  const rows = await db.execute<ListRow>(sql`select ${LIST_COLUMNS}
    from deadlines.deadlines d join deadlines.client_directory c on c.client_id = d.client_id
    where d.done_at is null and d.due_on < ${today} and d.overdue_announced_at is null
    order by d.due_on, d.id limit ${limit}`);
  return rows.rows;
}

export async function markOverdueAnnounced(db: Exec, id: string): Promise<boolean> {
  const rows = await db
    .update(deadlines)
    .set({ overdueAnnouncedAt: sql`now()` })
    .where(and(eq(deadlines.id, id), isNull(deadlines.overdueAnnouncedAt), isNull(deadlines.doneAt)))
    .returning({ id: deadlines.id });
  return rows.length > 0;
}

export async function profiledClientIds(db: Exec, afterId: string | null, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: taxProfiles.clientId })
    .from(taxProfiles)
    .where(afterId ? sql`${taxProfiles.clientId} > ${afterId}` : undefined)
    .orderBy(asc(taxProfiles.clientId))
    .limit(limit);
  return rows.map((r) => r.id);
}

export async function linkedClients(db: Exec, afterId: string | null, limit: number) {
  return db
    .select({ clientId: taxProfiles.clientId, companyNumber: taxProfiles.companyNumber })
    .from(taxProfiles)
    .where(and(sql`${taxProfiles.companyNumber} is not null`, afterId ? sql`${taxProfiles.clientId} > ${afterId}` : undefined))
    .orderBy(asc(taxProfiles.clientId))
    .limit(limit);
}

export async function readLeadDays(db: Exec): Promise<number> {
  const rows = await db.select({ d: deadlineSettings.taskLeadDays }).from(deadlineSettings).where(eq(deadlineSettings.id, 1));
  return rows[0]?.d ?? 30;
}

export async function writeLeadDays(db: Exec, days: number) {
  await db
    .insert(deadlineSettings)
    .values({ id: 1, taskLeadDays: days })
    .onConflictDoUpdate({ target: deadlineSettings.id, set: { taskLeadDays: days, updatedAt: sql`now()` } });
}

export async function calendarTokenOf(db: Exec, principalId: string) {
  const rows = await db.select().from(calendarTokens).where(eq(calendarTokens.principalId, principalId));
  return rows[0] ?? null;
}

export async function setCalendarToken(db: Exec, principalId: string, principalKind: string, tokenHash: string) {
  await db
    .insert(calendarTokens)
    .values({ principalId, principalKind, tokenHash })
    .onConflictDoUpdate({ target: calendarTokens.principalId, set: { tokenHash, createdAt: sql`now()` } });
}

/** Delete a principal's feed if it was made before `issuedBefore` (seconds); true when one went. */
export async function removeCalendarTokenIssuedBefore(db: Exec, principalId: string, issuedBefore: number): Promise<boolean> {
  const res = await db.execute(sql`
    delete from deadlines.calendar_tokens where principal_id = ${principalId} and created_at < to_timestamp(${issuedBefore}) returning principal_id`);
  return res.rows.length > 0;
}

export async function principalOfToken(db: Exec, tokenHash: string) {
  const rows = await db.select().from(calendarTokens).where(eq(calendarTokens.tokenHash, tokenHash));
  return rows[0] ?? null;
}

/** Open deadlines for a member of staff's calendar feed: the clients assigned to them. */
export async function feedDeadlines(db: Exec, accountantId: string, today: IsoDate) {
  const rows =
    await db.execute<ListRow>(sql`select ${LIST_COLUMNS} from deadlines.deadlines d join deadlines.client_directory c on c.client_id = d.client_id
    where d.done_at is null and d.assigned_accountant_id = ${accountantId} and d.due_on >= ${addDays(today, -31)} and d.due_on <= ${addDays(today, 400)}
    order by d.due_on, d.id limit 5000`);
  return rows.rows.map((r) => toDeadline(r, today));
}

/** Each client's earliest open deadline and how many are overdue, for the clients in scope among `clientIds`. */
export async function nextDeadlines(db: Exec, scope: ClientScope, clientIds: string[], today: IsoDate) {
  if (clientIds.length === 0) return [];
  const s = scopeFilter(scope);
  const rows = await db.execute<{ client_id: string; id: string; kind: string; period: string; due_on: string; overdue_count: number }>(sql`
    select distinct on (d.client_id) d.client_id, d.id, d.kind, d.period, d.due_on::text as due_on,
      count(*) filter (where d.due_on < ${today}) over (partition by d.client_id)::int as overdue_count
    from deadlines.deadlines d
    where d.done_at is null and d.client_id in (${sql.join(
      clientIds.map((id) => sql`${id}`),
      sql`, `,
    )}) ${s ? sql`and ${s}` : sql``}
    order by d.client_id, d.due_on, d.id`);
  return rows.rows;
}

// ---------------------------------------------------------------- identity verification

export type IdentityPersonRow = Omit<typeof identityPeople.$inferInsert, 'clientId' | 'assignedAccountantId' | 'updatedAt'>;

/** Rewrite a client's people to verify (the refresh's whole answer: a person no longer listed goes). */
export async function replaceIdentityPeople(db: Exec, clientId: string, rows: IdentityPersonRow[], accountantId: string | null) {
  await db.delete(identityPeople).where(eq(identityPeople.clientId, clientId));
  if (rows.length) await db.insert(identityPeople).values(rows.map((r) => ({ ...r, clientId, assignedAccountantId: accountantId })));
}

export async function readPracticeVerifications(db: Exec, clientId: string): Promise<Map<string, PracticeVerification>> {
  const rows = await db
    .select()
    .from(identityPracticeVerifications)
    .where(and(eq(identityPracticeVerifications.clientId, clientId), isNull(identityPracticeVerifications.withdrawnAt)));
  return new Map(rows.map((r) => [r.personKey, { verifiedOn: r.verifiedOn, byName: r.byName }]));
}

export async function savePracticeVerification(
  db: Exec,
  v: { clientId: string; personKey: string; verifiedOn: string; byName: string; withdrawn: boolean },
) {
  await db
    .insert(identityPracticeVerifications)
    .values({
      clientId: v.clientId,
      personKey: v.personKey,
      verifiedOn: v.verifiedOn,
      byName: v.byName,
      withdrawnAt: v.withdrawn ? new Date() : null,
    })
    .onConflictDoUpdate({
      target: [identityPracticeVerifications.clientId, identityPracticeVerifications.personKey],
      set: { verifiedOn: v.verifiedOn, byName: v.byName, withdrawnAt: v.withdrawn ? new Date() : null },
    });
}

export interface IdentityListRow extends Record<string, unknown> {
  client_id: string;
  company_name: string;
  assigned_accountant_id: string | null;
  person_key: string;
  name: string;
  person_kind: IdentityPerson['person_kind'];
  verified_on: string | null;
  verified_by: string | null;
  verified_source: IdentityPerson['verified_source'];
  due_on: string | null;
  due_source: IdentityPerson['due_source'];
  due_rule: IdvRule | null;
}

export type IdentityFilter = 'overdue' | 'due_30' | 'unknown' | 'not_verified' | 'verified' | 'all';

/**
 * The practice's identity verification list: every person across the visible clients, by due date
 * (unknown dates last), paged. Filters read identity_people_open_due_idx or the accountant index.
 */
export async function listIdentityPeople(
  db: Exec,
  scope: ClientScope,
  q: { filter: IdentityFilter; assigneeId?: string; clientId?: string; page: number; pageSize: number },
  today: IsoDate,
) {
  const where: SQL[] = [];
  if (q.filter === 'overdue') where.push(sql`p.verified_on is null`, sql`p.due_on < ${today}`);
  else if (q.filter === 'due_30') where.push(sql`p.verified_on is null`, sql`p.due_on >= ${today}`, sql`p.due_on <= ${addDays(today, 30)}`);
  else if (q.filter === 'unknown') where.push(sql`p.verified_on is null`, sql`p.due_on is null`);
  else if (q.filter === 'not_verified') where.push(sql`p.verified_on is null`);
  else if (q.filter === 'verified') where.push(sql`p.verified_on is not null`);
  if (q.clientId) where.push(sql`p.client_id = ${q.clientId}`);
  if (q.assigneeId === 'none') where.push(sql`p.assigned_accountant_id is null`);
  else if (q.assigneeId) where.push(sql`p.assigned_accountant_id = ${q.assigneeId}`);
  if (!scope.all) {
    const owned = sql`p.client_id in (select client_id from deadlines.client_directory where user_id = ${scope.ownerUserId})`;
    where.push(scope.accountantId ? sql`(p.assigned_accountant_id = ${scope.accountantId} or ${owned})` : owned);
  }
  const cond = where.length ? sql`where ${sql.join(where, sql` and `)}` : sql``;
  const offset = (q.page - 1) * q.pageSize;
  const [rows, total] = await Promise.all([
    db.execute<IdentityListRow>(sql`select p.client_id, c.company_name, p.assigned_accountant_id, p.person_key, p.name, p.person_kind,
        p.verified_on::text as verified_on, p.verified_by, p.verified_source, p.due_on::text as due_on, p.due_source, p.due_rule
      from deadlines.identity_people p join deadlines.client_directory c on c.client_id = p.client_id
      ${cond} order by p.due_on nulls last, p.client_id, p.position limit ${q.pageSize} offset ${offset}`),
    db.execute<{ n: number }>(
      sql`select count(*)::int as n from (select 1 from deadlines.identity_people p ${cond} limit ${COUNT_CAP + 1}) t`,
    ),
  ]);
  const n = total.rows[0]?.n ?? 0;
  return { rows: rows.rows, total: Math.min(n, COUNT_CAP), totalCapped: n > COUNT_CAP };
}

/** How many current people of each given client are not verified (a confirmation statement is blocked while any are). */
export async function unverifiedCounts(db: Exec, clientIds: string[]): Promise<Map<string, number>> {
  if (!clientIds.length) return new Map();
  const rows = await db.execute<{ client_id: string; n: number }>(sql`select client_id, count(*)::int as n from deadlines.identity_people
    where client_id in ${sql`(${sql.join(
      clientIds.map((id) => sql`${id}`),
      sql`, `,
    )})`} and verified_on is null group by client_id`);
  return new Map(rows.rows.map((r) => [r.client_id, r.n]));
}

/** Not verified people whose date is within `days` (or passed) and whose contact has not been reminded for that date. */
export async function identityRemindersDue(db: Exec, today: IsoDate, days: number, limit: number) {
  const rows = await db.execute<{
    client_id: string;
    person_key: string;
    name: string;
    person_kind: string;
    details: IdentityPersonRow['details'];
    due_on: string;
    company_name: string;
    contact_name: string | null;
    contact_email: string;
  }>(sql`select p.client_id, p.person_key, p.name, p.person_kind, p.details, p.due_on::text as due_on, c.company_name, c.contact_name, c.contact_email
    from deadlines.identity_people p join deadlines.client_directory c on c.client_id = p.client_id
    where p.verified_on is null and p.due_on <= ${addDays(today, days)} and c.contact_email is not null
      and not exists (select 1 from deadlines.identity_reminders r where r.client_id = p.client_id and r.person_key = p.person_key and r.due_on = p.due_on)
    order by p.due_on, p.client_id, p.position limit ${limit}`);
  return rows.rows;
}

/** Claim a reminder (false when it was already sent for this person and date). */
export async function claimIdentityReminder(db: Exec, clientId: string, personKey: string, dueOn: string): Promise<boolean> {
  const rows =
    await db.execute(sql`insert into deadlines.identity_reminders (client_id, person_key, due_on) values (${clientId}, ${personKey}, ${dueOn})
    on conflict do nothing returning 1`);
  return rows.rows.length === 1;
}

/** HMRC's MTD obligations of a client as last read (empty when never read). */
export async function readMtdObligations(db: Exec, clientId: string): Promise<MtdObligationFact[]> {
  const rows = await db.select({ o: mtdObligations.obligations }).from(mtdObligations).where(eq(mtdObligations.clientId, clientId));
  return rows[0]?.o ?? [];
}

/** Keep HMRC's newer answer for a client; false when the one held is as new or newer (events out of order). */
export async function saveMtdObligations(
  db: Exec,
  clientId: string,
  refreshedAt: Date,
  obligations: MtdObligationFact[],
): Promise<boolean> {
  const res = await db.execute(sql`
    insert into deadlines.mtd_obligations (client_id, refreshed_at, obligations)
    values (${clientId}, ${refreshedAt.toISOString()}, ${JSON.stringify(obligations)}::jsonb)
    on conflict (client_id) do update set refreshed_at = excluded.refreshed_at, obligations = excluded.obligations
     where deadlines.mtd_obligations.refreshed_at < excluded.refreshed_at
    returning client_id`);
  return res.rows.length === 1;
}
