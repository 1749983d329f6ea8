import { clientDirectoryEntry, type ClientScope, type DbOrTx as Db } from '@countinghouse/kit';
import type { LetterReason, TemplateSet } from '@countinghouse/proto';
import { and, desc, eq, inArray, isNull, max, sql } from 'drizzle-orm';
import { audit, clientDirectory, letters, reminders, templateVersions } from './schema.js';

export type DirectoryRow = typeof clientDirectory.$inferSelect;
export type LetterRow = typeof letters.$inferSelect;

// ---- the client directory (crm.client_upserted) ----

export async function directoryEntry(db: Db, clientId: string, opts: { forUpdate?: boolean } = {}): Promise<DirectoryRow | null> {
  return clientDirectoryEntry(db, clientDirectory, clientId, opts);
}

export async function ownClients(db: Db, userId: string): Promise<DirectoryRow[]> {
  return db.select().from(clientDirectory).where(eq(clientDirectory.userId, userId)).orderBy(clientDirectory.companyName);
}

// ---- provisional clients (terms before payment, issue 33) ----

/** A person's provisional client from their sign-up, made once (a redelivery or a later sign-up changes nothing). */
export async function insertProspect(tx: Db, row: Omit<DirectoryRow, 'updatedAt'>): Promise<void> {
  await tx.insert(clientDirectory).values(row).onConflictDoNothing();
}

/** The package a provisional client chose (the letter made for it names it and its fee). */
export async function setProspectPackage(tx: Db, clientId: string, packageName: string, monthlyFee: number): Promise<void> {
  await tx.update(clientDirectory).set({ packageName, monthlyFee, updatedAt: new Date() }).where(eq(clientDirectory.clientId, clientId));
}

/**
 * crm's record now exists for a provisional client: its letters take crm's id (the one change the
 * guard allows, migration 0002) and the provisional row goes. Returns the letters moved, newest first.
 */
export async function adoptProspect(tx: Db, fromId: string, toId: string): Promise<LetterRow[]> {
  const moved = await tx.update(letters).set({ clientId: toId }).where(eq(letters.clientId, fromId)).returning();
  await tx.delete(clientDirectory).where(eq(clientDirectory.clientId, fromId));
  return moved.sort((a, b) => b.version - a.version);
}

// ---- templates ----

export async function currentTemplates(db: Db) {
  const [row] = await db.select().from(templateVersions).orderBy(desc(templateVersions.version)).limit(1);
  return row ?? null;
}

/** The first templates, once (a second start, or a second replica at once, adds nothing). */
export async function ensureTemplates(db: Db, t: TemplateSet): Promise<void> {
  await db.insert(templateVersions).values({ version: 1, templates: t, createdByName: 'Countinghouse' }).onConflictDoNothing();
}

/** A new version of the templates; null when another save took the version first (a concurrent edit). */
export async function addTemplates(db: Db, afterVersion: number, t: TemplateSet, by: { id: string; name: string }) {
  const [row] = await db
    .insert(templateVersions)
    .values({ version: afterVersion + 1, templates: t, createdBy: by.id, createdByName: by.name })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

// ---- letters ----

export async function lettersOf(db: Db, clientId: string): Promise<LetterRow[]> {
  return db.select().from(letters).where(eq(letters.clientId, clientId)).orderBy(desc(letters.version));
}

export async function newestLetter(db: Db, clientId: string): Promise<LetterRow | null> {
  const [row] = await db.select().from(letters).where(eq(letters.clientId, clientId)).orderBy(desc(letters.version)).limit(1);
  return row ?? null;
}

export async function letterById(db: Db, id: string, opts: { forUpdate?: boolean } = {}): Promise<LetterRow | null> {
  const q = db.select().from(letters).where(eq(letters.id, id));
  const [row] = opts.forUpdate ? await q.for('update') : await q;
  return row ?? null;
}

export async function newestVersionOf(db: Db, clientId: string): Promise<number> {
  const [row] = await db
    .select({ v: max(letters.version) })
    .from(letters)
    .where(eq(letters.clientId, clientId));
  return row?.v ?? 0;
}

export interface NewLetter {
  clientId: string;
  version: number;
  reason: LetterReason;
  templateVersion: number;
  packageName: string;
  monthlyFee: number;
  isConsumer: boolean;
  clientName: string;
  recipientEmail: string;
  text: string;
  textSha256: string;
  sentAt: Date;
  sentBy: string | null;
}

export async function insertLetter(tx: Db, l: NewLetter): Promise<LetterRow> {
  const [row] = await tx.insert(letters).values(l).returning();
  return row!;
}

export interface Signature {
  signedAt: Date;
  signerName: string;
  signerEmail: string;
  signerUserId: string;
  signerIp: string | null;
  signerUserAgent: string | null;
  pdf: Buffer;
  pdfSha256: string;
  documentId: string;
}

/** The one change a letter ever takes: its signature, only while unsigned (the trigger refuses any other). */
export async function recordSignature(tx: Db, id: string, s: Signature): Promise<LetterRow | null> {
  const [row] = await tx
    .update(letters)
    .set(s)
    .where(and(eq(letters.id, id), isNull(letters.signedAt)))
    .returning();
  return row ?? null;
}

/** Provisional clients (not yet paid, no crm record) are not the practice's clients: left out of its lists. */
const NOT_PROSPECT = sql.raw(`cd.client_id not like 'prospect:%'`);

/** Each client's newest letter version, for the clients in scope (client list badges, counts). */
export async function newestPerClient(db: Db, scope: ClientScope) {
  const where = scope.all
    ? sql`where ${NOT_PROSPECT}`
    : sql`where ${NOT_PROSPECT} and (cd.user_id = ${scope.ownerUserId ?? ''} or cd.assigned_accountant_id = ${scope.accountantId ?? ''})`;
  const res = await db.execute<{ client_id: string; company_name: string; version: number; signed_at: Date | string | null }>(sql`
    select distinct on (l.client_id) l.client_id, cd.company_name, l.version, l.signed_at
    from engagement.letters l
    join engagement.client_directory cd on cd.client_id = l.client_id
    ${where}
    order by l.client_id, l.version desc`);
  return res.rows;
}

/** Clients whose newest letter awaits signature (the control panel's count). */
export async function countAwaiting(db: Db): Promise<number> {
  const res = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from (
      select distinct on (client_id) client_id, signed_at from engagement.letters
      where client_id not like 'prospect:%' order by client_id, version desc
    ) newest where newest.signed_at is null`);
  return res.rows[0]?.n ?? 0;
}

/** Clients whose newest letter was made from templates older than `version` and who can still sign. */
export async function clientsOnOlderTemplates(db: Db, version: number, limit = 100_000): Promise<string[]> {
  const res = await db.execute<{ client_id: string }>(sql`
    select newest.client_id from (
      select distinct on (client_id) client_id, template_version from engagement.letters order by client_id, version desc
    ) newest
    join engagement.client_directory cd on cd.client_id = newest.client_id
    where newest.template_version < ${version} and ${NOT_PROSPECT} and cd.user_id is not null and cd.package_name is not null
      and cd.subscription_status <> 'cancelled'
    order by newest.client_id
    limit ${limit}`);
  return res.rows.map((r) => r.client_id);
}

export async function countOnOlderTemplates(db: Db, version: number): Promise<number> {
  return (await clientsOnOlderTemplates(db, version)).length;
}

/** Unsigned newest letters of clients still with the practice, oldest first, after a cursor. */
export async function awaitingLetters(db: Db, after: string | null, limit: number) {
  const res = await db.execute<{ id: string; client_id: string; sent_at: Date | string; recipient_email: string }>(sql`
    select newest.id, newest.client_id, newest.sent_at, newest.recipient_email from (
      select distinct on (client_id) id, client_id, version, sent_at, signed_at, recipient_email
      from engagement.letters order by client_id, version desc
    ) newest
    join engagement.client_directory cd on cd.client_id = newest.client_id
    where newest.signed_at is null and cd.subscription_status <> 'cancelled' and ${NOT_PROSPECT}
      ${after ? sql`and newest.id > ${after}` : sql``}
    order by newest.id
    limit ${limit}`);
  return res.rows;
}

export async function remindersSent(db: Db, letterId: string): Promise<number[]> {
  const rows = await db.select({ day: reminders.day }).from(reminders).where(eq(reminders.letterId, letterId));
  return rows.map((r) => r.day);
}

/** Claim a reminder; false when it was already sent (a rerun, or another replica). */
export async function claimReminder(tx: Db, letterId: string, day: number): Promise<boolean> {
  const rows = await tx.insert(reminders).values({ letterId, day }).onConflictDoNothing().returning({ day: reminders.day });
  return rows.length === 1;
}

// ---- audit ----

export interface AuditEntry {
  letterId: string;
  clientId: string;
  action: 'send' | 'view' | 'sign' | 'download' | 'reminder';
  principal: { kind: string; id: string | null; name: string };
  ip?: string | null;
  userAgent?: string | null;
  detail?: string | null;
}

export async function addAudit(db: Db, e: AuditEntry): Promise<void> {
  await db.insert(audit).values({
    letterId: e.letterId,
    clientId: e.clientId,
    action: e.action,
    principalKind: e.principal.kind,
    principalId: e.principal.id,
    principalName: e.principal.name,
    ip: e.ip ?? null,
    userAgent: e.userAgent?.slice(0, 500) ?? null,
    detail: e.detail ?? null,
  });
}

export async function auditOf(db: Db, letterId: string) {
  return db.select().from(audit).where(eq(audit.letterId, letterId)).orderBy(audit.at, audit.id);
}

export async function directoryEntries(db: Db, ids: string[]): Promise<DirectoryRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(clientDirectory).where(inArray(clientDirectory.clientId, ids));
}

/**
 * My work (issue 26): newest letters awaiting signature of current clients, with the London day each was
 * sent; of one accountant's clients, or (null) every client's.
 */
export async function workLetters(db: Db, accountantId: string | null) {
  const res = await db.execute<{
    id: string;
    client_id: string;
    company_name: string;
    version: number;
    sent_on: string;
    assigned_accountant_id: string | null;
  }>(sql`
    select newest.id, newest.client_id, cd.company_name, newest.version,
      (newest.sent_at at time zone 'Europe/London')::date::text as sent_on, cd.assigned_accountant_id from (
      select distinct on (client_id) id, client_id, version, sent_at, signed_at
      from engagement.letters order by client_id, version desc
    ) newest
    join engagement.client_directory cd on cd.client_id = newest.client_id
    where newest.signed_at is null and cd.subscription_status <> 'cancelled' and ${NOT_PROSPECT}
      ${accountantId ? sql`and cd.assigned_accountant_id = ${accountantId}` : sql``}
    order by newest.sent_at, newest.id
    limit 500`);
  return res.rows;
}
