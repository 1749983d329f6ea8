import {
  londonDayStart,
  upsertClientDirectory,
  type ClientDirectoryInsert,
  type ClientScope,
  type Db,
  type DbOrTx,
} from '@countinghouse/kit';
import {
  AML_EVIDENCE_DOCUMENT_TYPE,
  cleanDisplayName,
  REPORT_TIME_ZONE,
  type AccessAction,
  type ClientDocument,
  type DocumentListQuery,
  type DocumentSummary,
} from '@countinghouse/proto';
import { sql, type SQL } from 'drizzle-orm';
import { clientDirectory } from './schema.js';

type Exec = Pick<Db, 'execute'>;

export interface DocumentRow {
  id: string;
  client_id: string;
  filename: string;
  document_type: string;
  file_path: string;
  file_size: number;
  content_type: string;
  description: string | null;
  uploaded_by: string;
  status: string;
  created_at: Date | string;
  company_name: string | null;
  contact_email: string | null;
}

export interface DirectoryRow {
  client_id: string;
  user_id: string | null;
  company_name: string;
  contact_email: string;
  assigned_accountant_id: string | null;
}

/** The row as the API shows it (no storage path; the name cleaned for display, whatever an older row holds). */
export function toDocument(r: DocumentRow): ClientDocument {
  return {
    id: r.id,
    client_id: r.client_id,
    filename: cleanDisplayName(r.filename),
    document_type: r.document_type,
    file_size: Number(r.file_size),
    content_type: r.content_type,
    description: r.description,
    uploaded_by: r.uploaded_by,
    status: r.status,
    created_at: new Date(r.created_at).toISOString(),
    company_name: r.company_name,
    contact_email: r.contact_email,
  };
}

/** What the one trigram index searches: file name, description, company, e-mail, lower-cased, one per line. */
export function searchText(filename: string, description: string | null, companyName: string, contactEmail: string): string {
  return [filename, description ?? '', companyName, contactEmail].join('\n').toLowerCase();
}

/** The access rule as SQL on `d.client_id`: every query that touches documents goes through it. */
export function scopeSql(scope: ClientScope): SQL {
  if (scope.all) return sql`true`;
  return sql`d.client_id in (select c2.client_id from documents.client_directory c2
    where c2.user_id = ${scope.ownerUserId} or c2.assigned_accountant_id = ${scope.accountantId})`;
}

function likePattern(search: string): string {
  return `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function filtersSql(scope: ClientScope, q: Partial<DocumentListQuery>): SQL {
  // Identity evidence belongs to the AML files and is never listed with a client's documents.
  const parts: SQL[] = [scopeSql(scope), sql`d.document_type <> ${AML_EVIDENCE_DOCUMENT_TYPE}`];
  const search = q.search?.trim();
  if (search) parts.push(sql`d.search_text like ${likePattern(search)}`);
  if (q.type && q.type !== 'all') parts.push(sql`d.document_type = ${q.type}`);
  if (q.status && q.status !== 'all') parts.push(sql`d.status = ${q.status}`);
  if (q.client_id) parts.push(sql`d.client_id = ${q.client_id}`);
  if (q.created_from) parts.push(sql`d.created_at >= ${londonDayStart(q.created_from)}`);
  if (q.created_to) parts.push(sql`d.created_at < ${londonDayStart(q.created_to, 1)}`);
  return sql.join(parts, sql` and `);
}

/** The list's total is exact up to this many; beyond, it says 'at least'. */
export const COUNT_CAP = 10_000;

export async function listDocuments(db: Exec, scope: ClientScope, q: DocumentListQuery) {
  const where = filtersSql(scope, q);
  const offset = (q.page - 1) * q.page_size;
  const [rows, count] = await Promise.all([
    db.execute<DocumentRow & Record<string, unknown>>(sql`
      select d.id, d.client_id, d.filename, d.document_type, d.file_path, d.file_size, d.content_type, d.description,
             d.uploaded_by, d.status, d.created_at, c.company_name, c.contact_email
      from documents.client_documents d
      left join documents.client_directory c on c.client_id = d.client_id
      where ${where}
      order by d.created_at desc nulls last, d.id desc nulls last
      limit ${q.page_size} offset ${offset}`),
    // Counting stops at COUNT_CAP: an exact count of a broad match over hundreds of thousands of rows
    // costs more than the page itself, and nobody pages past it (a search narrows first).
    db.execute<{ total: string }>(
      sql`select count(*) as total from (select 1 from documents.client_documents d where ${where} limit ${COUNT_CAP + 1}) t`,
    ),
  ]);
  const counted = Number(count.rows[0]?.total ?? 0);
  return { documents: rows.rows.map(toDocument), total: Math.min(counted, COUNT_CAP), totalExact: counted <= COUNT_CAP };
}

export async function summarise(db: Exec, scope: ClientScope, clientId?: string): Promise<DocumentSummary> {
  const where = filtersSql(scope, { client_id: clientId });
  const res = await db.execute<{ total: string; active: string; pending: string; clients: string }>(sql`
    select count(*) as total,
           count(*) filter (where d.status = 'active') as active,
           count(*) filter (where d.status = 'pending') as pending,
           (select count(*) from documents.client_directory c
             where exists (select 1 from documents.client_documents d where d.client_id = c.client_id and ${where})) as clients
    from documents.client_documents d where ${where}`);
  const r = res.rows[0];
  return {
    total: Number(r?.total ?? 0),
    active: Number(r?.active ?? 0),
    pending: Number(r?.pending ?? 0),
    clients: Number(r?.clients ?? 0),
  };
}

/** One document the scope may see, or null (the caller answers 404 either way: ids cannot be probed). */
export async function findDocument(
  db: Exec,
  scope: ClientScope,
  id: string,
  opts: { amlEvidence?: ClientScope | null } = {},
): Promise<DocumentRow | null> {
  // AML identity evidence answers to its own rule (domain/access.ts amlEvidenceScopeOf), never the owner's.
  const evidence = opts.amlEvidence ? scopeSql(opts.amlEvidence) : sql`false`;
  const res = await db.execute<DocumentRow & Record<string, unknown>>(sql`
    select d.*, c.company_name, c.contact_email
    from documents.client_documents d
    left join documents.client_directory c on c.client_id = d.client_id
    where d.id = ${id} and (case when d.document_type = ${AML_EVIDENCE_DOCUMENT_TYPE} then ${evidence} else ${scopeSql(scope)} end)`);
  return res.rows[0] ?? null;
}

/** A directory entry the scope may act for. */
export async function findClient(db: Exec, scope: ClientScope, clientId: string): Promise<DirectoryRow | null> {
  const cond = scope.all ? sql`true` : sql`(c.user_id = ${scope.ownerUserId} or c.assigned_accountant_id = ${scope.accountantId})`;
  const res = await db.execute<DirectoryRow & Record<string, unknown>>(sql`
    select c.client_id, c.user_id, c.company_name, c.contact_email, c.assigned_accountant_id
    from documents.client_directory c where c.client_id = ${clientId} and ${cond}`);
  return res.rows[0] ?? null;
}

/** The businesses a person owns (their own client records). */
export async function ownClients(db: Exec, userId: string): Promise<DirectoryRow[]> {
  const res = await db.execute<DirectoryRow & Record<string, unknown>>(sql`
    select client_id, user_id, company_name, contact_email, assigned_accountant_id
    from documents.client_directory where user_id = ${userId} order by company_name limit 2`);
  return res.rows;
}

export async function listDirectory(db: Exec, scope: ClientScope, search: string | undefined, limit: number) {
  const parts: SQL[] = [
    scope.all ? sql`true` : sql`(c.user_id = ${scope.ownerUserId} or c.assigned_accountant_id = ${scope.accountantId})`,
  ];
  const s = search?.trim();
  if (s) parts.push(sql`(c.company_name ilike ${likePattern(s)} or c.contact_email ilike ${likePattern(s)})`);
  const res = await db.execute<{ client_id: string; company_name: string; contact_email: string }>(sql`
    select c.client_id, c.company_name, c.contact_email from documents.client_directory c
    where ${sql.join(parts, sql` and `)} order by lower(c.company_name), c.client_id limit ${limit}`);
  return res.rows;
}

export interface AccessEntry {
  documentId: string;
  action: AccessAction;
  principal: { kind: string; id: string; name: string };
  ip: string | null;
  userAgent: string | null;
}

export async function logAccess(db: Exec, e: AccessEntry): Promise<void> {
  await db.execute(sql`
    insert into documents.document_access_log (document_id, action, principal_kind, principal_id, principal_name, ip, user_agent)
    values (${e.documentId}, ${e.action}, ${e.principal.kind}, ${e.principal.id}, ${e.principal.name}, ${e.ip}, ${e.userAgent?.slice(0, 500) ?? null})`);
}

export async function accessLogOf(db: Exec, documentId: string) {
  const res = await db.execute<{
    id: string;
    document_id: string;
    action: AccessAction;
    principal_kind: string;
    principal_id: string;
    principal_name: string;
    ip: string | null;
    user_agent: string | null;
    at: Date | string;
  }>(sql`select * from documents.document_access_log where document_id = ${documentId} order by at desc, id desc limit 500`);
  return res.rows.map((r) => ({ ...r, id: String(r.id), at: new Date(r.at).toISOString() }));
}

/**
 * Apply a client_upserted to the directory (the kit's upsertClientDirectory: an older event never
 * overwrites a newer one; updated_at is the database's now()); when the company name or e-mail changed,
 * the search text of that client's documents follows.
 */
export async function upsertDirectory(db: DbOrTx, e: ClientDirectoryInsert<typeof clientDirectory>): Promise<boolean> {
  const prev = await db.execute<{ company_name: string; contact_email: string }>(
    sql`select company_name, contact_email from documents.client_directory where client_id = ${e.clientId} for update`,
  );
  const written = await upsertClientDirectory(db, clientDirectory, e, { updatedAt: sql`now()` });
  const old = prev.rows[0];
  if (written && old && (old.company_name !== e.companyName || old.contact_email !== e.contactEmail)) {
    await db.execute(sql`
      update documents.client_documents
      set search_text = lower(filename || E'\\n' || coalesce(description, '') || E'\\n' || ${e.companyName} || E'\\n' || ${e.contactEmail})
      where client_id = ${e.clientId}`);
  }
  return written;
}

/** A stored file's row, with the directory's name and e-mail as the list shows them. */
export async function insertDocument(
  db: Exec,
  d: {
    client: DirectoryRow;
    filename: string;
    documentType: string;
    key: string;
    size: number;
    contentType: string;
    description: string | null;
    uploadedBy: string;
  },
): Promise<DocumentRow> {
  const { client, filename, documentType, key, description } = d;
  const res = await db.execute<DocumentRow & Record<string, unknown>>(sql`
          insert into documents.client_documents
            (client_id, filename, document_type, file_path, file_size, content_type, description, uploaded_by, status, search_text)
          values (${client.client_id}, ${filename}, ${documentType}, ${key}, ${d.size}, ${d.contentType}, ${description},
                  ${d.uploadedBy}, 'active', ${searchText(filename, description, client.company_name, client.contact_email)})
          returning *, ${client.company_name}::text as company_name, ${client.contact_email}::text as contact_email`);
  return res.rows[0]!;
}

/** Uploads per London ISO week and type, over [from, to] (London days). */
export async function uploadsPerWeek(db: Exec, from: string, to: string) {
  // The same condition as the list's created_from/created_to; client_documents_created_idx serves
  // the range (docs/perf/reports-plans.md).
  const res = await db.execute<{ week_start: string; document_type: string; n: string }>(sql`
        select to_char(w.week, 'YYYY-MM-DD') as week_start, w.document_type, w.n
        from (select date_trunc('week', d.created_at at time zone ${REPORT_TIME_ZONE}) as week, d.document_type, count(*) as n
              from documents.client_documents d
              where d.created_at >= ${londonDayStart(from)} and d.created_at < ${londonDayStart(to, 1)}
              group by 1, 2) w`);
  return res.rows;
}
