import { clientDirectoryEntry, upsertClientDirectory, type ClientDirectoryInsert, type ClientScope, type DbOrTx } from '@countinghouse/kit';
import {
  AML_OUTSTANDING_STATUSES,
  AML_REVIEW_LEAD_DAYS,
  AML_STATUS_VALUES,
  type AmlCounts,
  type AmlListItem,
  type AmlListQuery,
  type AmlStatus,
  type CompanyOfficer,
  type CompanyPsc,
  type RiskAssessment,
  type VersionState,
} from '@countinghouse/proto';
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { addDays, type IsoDate } from '../domain/dates.js';
import { audit, clientDirectory, companyPeople, deletions, evidenceDocuments, files, versions, type VersionContent } from './schema.js';

/** The database or a transaction: every query here runs on either. */
export type Exec = DbOrTx;

export type DirectoryRow = typeof clientDirectory.$inferSelect;
export type FileRow = typeof files.$inferSelect;
export type VersionRow = typeof versions.$inferSelect;

// ---- the client directory (crm.client_upserted) ----

/**
 * The kit's upsertClientDirectory (the newest event wins; true when written), keeping a known business
 * type when the event has none. The relationship ends the first time the client is seen cancelled (the
 * London day of the event), and starts again if they return.
 */
export async function upsertDirectory(
  db: Exec,
  e: Omit<ClientDirectoryInsert<typeof clientDirectory>, 'relationshipEndedOn'>,
  londonDay: IsoDate,
): Promise<boolean> {
  return upsertClientDirectory(
    db,
    clientDirectory,
    { ...e, relationshipEndedOn: e.subscriptionStatus === 'cancelled' ? londonDay : null },
    {
      businessType: sql`coalesce(excluded.business_type, aml.client_directory.business_type)`,
      relationshipEndedOn: sql`case when excluded.subscription_status = 'cancelled'
        then coalesce(aml.client_directory.relationship_ended_on, excluded.relationship_ended_on) else null end`,
    },
  );
}

export async function directoryEntry(db: Exec, clientId: string): Promise<DirectoryRow | null> {
  return clientDirectoryEntry(db, clientDirectory, clientId);
}

// ---- Companies House people (deadlines.company_refreshed) ----

export async function saveCompanyPeople(
  db: Exec,
  e: { clientId: string; companyNumber: string; officers: CompanyOfficer[]; pscs: CompanyPsc[]; at: string },
): Promise<void> {
  await db
    .insert(companyPeople)
    .values({ clientId: e.clientId, companyNumber: e.companyNumber, officers: e.officers, pscs: e.pscs, refreshedAt: new Date(e.at) })
    .onConflictDoUpdate({
      target: companyPeople.clientId,
      set: { companyNumber: e.companyNumber, officers: e.officers, pscs: e.pscs, refreshedAt: new Date(e.at) },
      setWhere: sql`${companyPeople.refreshedAt} <= ${new Date(e.at)}`,
    });
}

export async function readCompanyPeople(db: Exec, clientId: string) {
  const rows = await db.select().from(companyPeople).where(eq(companyPeople.clientId, clientId));
  return rows[0] ?? null;
}

// ---- files and versions ----

export async function readFile(db: Exec, clientId: string, opts: { lock?: boolean } = {}): Promise<FileRow | null> {
  const q = db.select().from(files).where(eq(files.clientId, clientId));
  const rows = opts.lock ? await q.for('update') : await q;
  return rows[0] ?? null;
}

/** The file of a client, made (an empty draft version 1) when there is none yet. */
export async function ensureFile(db: Exec, clientId: string): Promise<void> {
  const made = await db.insert(files).values({ clientId }).onConflictDoNothing().returning({ clientId: files.clientId });
  if (made.length > 0)
    await db
      .insert(versions)
      .values({ clientId, version: 1, state: 'draft', content: { people: [], risk_answers: null }, createdByName: 'System' });
}

export async function readVersion(db: Exec, clientId: string, version: number): Promise<VersionRow | null> {
  const rows = await db
    .select()
    .from(versions)
    .where(and(eq(versions.clientId, clientId), eq(versions.version, version)));
  return rows[0] ?? null;
}

/** Every version of a client's file, whole. */
export async function allVersions(db: Exec, clientId: string): Promise<VersionRow[]> {
  return db.select().from(versions).where(eq(versions.clientId, clientId)).orderBy(asc(versions.version));
}

export async function versionList(db: Exec, clientId: string) {
  return db
    .select({ version: versions.version, state: versions.state, approvedAt: versions.approvedAt })
    .from(versions)
    .where(eq(versions.clientId, clientId))
    .orderBy(desc(versions.version));
}

/** Save a draft's content (and its risk, worked out from the answers); never touches an approved version. */
export async function saveDraft(
  db: Exec,
  clientId: string,
  version: number,
  content: VersionContent,
  risk: RiskAssessment | null,
  state: 'draft' | 'awaiting_approval',
  opts: { started?: boolean } = {},
): Promise<void> {
  await db
    .update(versions)
    .set({ content, risk, state })
    .where(and(eq(versions.clientId, clientId), eq(versions.version, version), inArray(versions.state, ['draft', 'awaiting_approval'])));
  await db
    .update(files)
    .set({ latestState: state, ...(opts.started === false ? {} : { startedAt: sql`coalesce(${files.startedAt}, now())` }) })
    .where(eq(files.clientId, clientId));
}

/** Start the next version as a draft copy of the latest. */
export async function startVersion(db: Exec, clientId: string, from: VersionRow, createdByName: string): Promise<number> {
  const next = from.version + 1;
  await db.insert(versions).values({ clientId, version: next, state: 'draft', content: from.content, risk: from.risk, createdByName });
  await db.update(files).set({ latestVersion: next, latestState: 'draft' }).where(eq(files.clientId, clientId));
  return next;
}

export async function approveVersion(
  db: Exec,
  clientId: string,
  version: number,
  a: { by: string; byName: string; note: string; nextReviewOn: IsoDate; riskLevel: string },
): Promise<void> {
  // The one in force until now is superseded (the trigger allows exactly this change).
  await db
    .update(versions)
    .set({ state: 'superseded' })
    .where(and(eq(versions.clientId, clientId), eq(versions.state, 'approved')));
  await db
    .update(versions)
    .set({
      state: 'approved',
      approvedAt: sql`now()`,
      approvedBy: a.by,
      approvedByName: a.byName,
      approvalNote: a.note,
      nextReviewOn: a.nextReviewOn,
    })
    .where(and(eq(versions.clientId, clientId), eq(versions.version, version)));
  await db
    .update(files)
    .set({ latestState: 'approved', approvedVersion: version, approvedNextReviewOn: a.nextReviewOn, approvedRiskLevel: a.riskLevel })
    .where(eq(files.clientId, clientId));
}

// ---- evidence documents (documents.document_uploaded) ----

export async function saveEvidenceDocument(db: Exec, e: { documentId: string; clientId: string; filename: string; at: string }) {
  await db
    .insert(evidenceDocuments)
    .values({ documentId: e.documentId, clientId: e.clientId, filename: e.filename, uploadedAt: new Date(e.at) })
    .onConflictDoNothing();
}

export async function evidenceDocumentsOf(db: Exec, clientId: string) {
  return db.select().from(evidenceDocuments).where(eq(evidenceDocuments.clientId, clientId));
}

export async function evidenceDocument(db: Exec, documentId: string) {
  const rows = await db.select().from(evidenceDocuments).where(eq(evidenceDocuments.documentId, documentId));
  return rows[0] ?? null;
}

// ---- audit ----

export async function addAudit(
  db: Exec,
  e: { clientId: string; version: number | null; action: string; detail: string; actorId: string | null; actorName: string },
): Promise<void> {
  await db.insert(audit).values(e);
}

export async function auditOf(db: Exec, clientId: string, limit = 500) {
  return db.select().from(audit).where(eq(audit.clientId, clientId)).orderBy(desc(audit.at), desc(audit.id)).limit(limit);
}

// ---- the practice list ----

/**
 * The status rule of domain/status.ts in SQL, for filters and counts over every client (a test checks
 * both agree). A client without a file row is not started.
 */
export function statusSql(today: IsoDate): SQL {
  const dueFrom = sql`(f.approved_next_review_on - ${AML_REVIEW_LEAD_DAYS}::int)`;
  return sql`(case
    when f.approved_next_review_on is not null and ${today}::date > f.approved_next_review_on
      then case when f.latest_state = 'awaiting_approval' then 'awaiting_approval' else 'expired' end
    when f.approved_next_review_on is not null and ${today}::date >= ${dueFrom} then 'review_due'
    when f.approved_next_review_on is not null then 'approved'
    when f.latest_state = 'awaiting_approval' then 'awaiting_approval'
    when f.started_at is not null then 'in_progress'
    else 'not_started' end)`;
}

/** A scope under the files' rule (domain/access.ts FILE_SCOPE: never a business's owner) as SQL on the directory `c`. */
const scopeSql = (scope: ClientScope) => (scope.all ? sql`true` : sql`c.assigned_accountant_id = ${scope.accountantId}`);
/** Clients whose relationship ended are not on the practice's list (their files are kept, not worked). */
const currentSql = sql`c.subscription_status <> 'cancelled'`;

export async function listFiles(db: Exec, scope: ClientScope, q: AmlListQuery, today: IsoDate) {
  const status = statusSql(today);
  const base: SQL[] = [scopeSql(scope), currentSql];
  const s = q.search?.trim();
  if (s) base.push(sql`c.company_name ilike ${`%${s.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`}`);
  const filters = [...base];
  if (q.status === 'outstanding')
    filters.push(
      sql`${status} in (${sql.join(
        AML_OUTSTANDING_STATUSES.map((x) => sql`${x}`),
        sql`, `,
      )})`,
    );
  else if (q.status && q.status !== 'all') filters.push(sql`${status} = ${q.status}`);
  if (q.risk === 'none') filters.push(sql`f.approved_risk_level is null`);
  else if (q.risk && q.risk !== 'all') filters.push(sql`f.approved_risk_level = ${q.risk}`);
  const from = sql`aml.client_directory c left join aml.files f on f.client_id = c.client_id`;
  const where = sql.join(filters, sql` and `);
  const [rows, total, counts] = await Promise.all([
    db.execute<{
      client_id: string;
      company_name: string;
      status: AmlStatus;
      risk: string | null;
      next_review_on: string | null;
      version: number | null;
    }>(sql`
      select c.client_id, c.company_name, ${status} as status, f.approved_risk_level as risk,
             f.approved_next_review_on::text as next_review_on, f.latest_version as version
      from ${from} where ${where}
      order by lower(c.company_name), c.client_id
      limit ${q.page_size} offset ${(q.page - 1) * q.page_size}`),
    db.execute<{ n: number }>(sql`select count(*)::int as n from ${from} where ${where}`),
    db.execute<{ status: AmlStatus; risk: string | null; n: number }>(sql`
      select ${status} as status, f.approved_risk_level as risk, count(*)::int as n
      from ${from} where ${sql.join(base, sql` and `)} group by 1, 2`),
  ]);
  const items: AmlListItem[] = rows.rows.map((r) => ({
    client_id: r.client_id,
    client_name: r.company_name,
    status: r.status,
    outstanding: AML_OUTSTANDING_STATUSES.includes(r.status),
    risk_level: r.risk,
    next_review_on: r.next_review_on,
    version: r.version ?? 1,
  }));
  const byStatus: Record<string, number> = Object.fromEntries(AML_STATUS_VALUES.map((v) => [v, 0]));
  const byRisk: Record<string, number> = { low: 0, medium: 0, high: 0, none: 0 };
  let outstanding = 0;
  for (const c of counts.rows) {
    byStatus[c.status] = (byStatus[c.status] ?? 0) + c.n;
    byRisk[c.risk ?? 'none'] = (byRisk[c.risk ?? 'none'] ?? 0) + c.n;
    if (AML_OUTSTANDING_STATUSES.includes(c.status)) outstanding += c.n;
  }
  const summary: AmlCounts = { by_status: byStatus, by_risk: byRisk, outstanding };
  return { items, total: total.rows[0]?.n ?? 0, counts: summary, report: counts.rows };
}

export async function statusesOf(db: Exec, scope: ClientScope, clientIds: string[], today: IsoDate) {
  if (clientIds.length === 0) return [];
  const res = await db.execute<{ client_id: string; status: AmlStatus }>(sql`
    select c.client_id, ${statusSql(today)} as status
    from aml.client_directory c left join aml.files f on f.client_id = c.client_id
    where c.client_id in (${sql.join(
      clientIds.map((id) => sql`${id}`),
      sql`, `,
    )}) and ${scopeSql(scope)} and ${currentSql}`);
  return res.rows;
}

// ---- reminders ----

/** Approved files whose review falls due by `today` and has not been announced for this review date. */
export async function reviewsFallingDue(db: Exec, today: IsoDate, limit: number) {
  return db
    .select({
      clientId: files.clientId,
      version: files.approvedVersion,
      nextReviewOn: files.approvedNextReviewOn,
      companyName: clientDirectory.companyName,
      accountantId: clientDirectory.assignedAccountantId,
    })
    .from(files)
    .innerJoin(clientDirectory, eq(clientDirectory.clientId, files.clientId))
    .where(
      and(
        sql`${files.approvedNextReviewOn} <= ${addDays(today, AML_REVIEW_LEAD_DAYS)}::date`,
        sql`${files.reviewAnnouncedFor} is distinct from ${files.approvedNextReviewOn}`,
        sql`${clientDirectory.subscriptionStatus} <> 'cancelled'`,
      ),
    )
    .orderBy(asc(files.approvedNextReviewOn), asc(files.clientId))
    .limit(limit);
}

/** Claim one announcement (false when another run already made it). */
export async function claimReviewAnnouncement(db: Exec, clientId: string, nextReviewOn: IsoDate): Promise<boolean> {
  const rows = await db
    .update(files)
    .set({ reviewAnnouncedFor: nextReviewOn })
    .where(
      and(
        eq(files.clientId, clientId),
        eq(files.approvedNextReviewOn, nextReviewOn),
        sql`${files.reviewAnnouncedFor} is distinct from ${nextReviewOn}::date`,
      ),
    )
    .returning({ clientId: files.clientId });
  return rows.length > 0;
}

// ---- retention ----

export async function endedRelationships(db: Exec, endedOnOrBefore: IsoDate) {
  return db
    .select({ clientId: clientDirectory.clientId, companyName: clientDirectory.companyName, endedOn: clientDirectory.relationshipEndedOn })
    .from(clientDirectory)
    .innerJoin(files, eq(files.clientId, clientDirectory.clientId))
    .where(sql`${clientDirectory.relationshipEndedOn} <= ${endedOnOrBefore}::date`)
    .orderBy(asc(clientDirectory.relationshipEndedOn))
    .limit(500);
}

export async function deleteFile(db: Exec, clientId: string) {
  await db.delete(versions).where(eq(versions.clientId, clientId));
  await db.delete(audit).where(eq(audit.clientId, clientId));
  await db.delete(evidenceDocuments).where(eq(evidenceDocuments.clientId, clientId));
  await db.delete(files).where(eq(files.clientId, clientId));
}

export async function recordDeletion(db: Exec, d: typeof deletions.$inferInsert) {
  await db.insert(deletions).values(d);
}

export async function deletionList(db: Exec) {
  return db.select().from(deletions).orderBy(desc(deletions.deletedAt)).limit(500);
}

export type { VersionState };

// ---- My work (issue 26) ----

export interface WorkFileRow extends Record<string, unknown> {
  client_id: string;
  company_name: string;
  assigned_accountant_id: string | null;
  latest_state: string;
  latest_version: number;
  approved_next_review_on: string | null;
  submitted_on: string | null;
}

/**
 * Files with review work by `horizon`: awaiting the MLRO's approval (when `awaiting` is asked for), and
 * approved files whose next review falls due. `accountantId` narrows the reviews to one accountant's
 * clients (null: every client's). Current clients only.
 */
export async function workFiles(db: Exec, q: { horizon: IsoDate; accountantId: string | null; awaiting: boolean }) {
  const mine = q.accountantId ? sql`c.assigned_accountant_id = ${q.accountantId}` : sql`true`;
  const rows = await db.execute<WorkFileRow>(sql`select f.client_id, c.company_name, c.assigned_accountant_id, f.latest_state,
      f.latest_version, f.approved_next_review_on::text as approved_next_review_on,
      (select (max(a.at) at time zone 'Europe/London')::date::text from aml.audit a
        where a.client_id = f.client_id and a.action = 'submit') as submitted_on
    from aml.files f join aml.client_directory c on c.client_id = f.client_id
    where c.relationship_ended_on is null and (
      (${q.awaiting} and f.latest_state = 'awaiting_approval')
      or (${mine} and f.approved_next_review_on is not null and f.approved_next_review_on <= ${q.horizon}
          and f.latest_state <> 'awaiting_approval'))
    order by f.client_id limit 500`);
  return rows.rows;
}
