import { AppError, type DbOrTx, type EventOf } from '@countinghouse/kit';
import { AUDIT_MESSAGES, type AuditList, type AuditQuery, type AuditRecord, type ChainCheck } from '@countinghouse/proto';
import {
  chainRows,
  clientNames,
  findAudit,
  insertAudit,
  lastOfChain,
  lockChain,
  readCheckpoint,
  readFieldHashes,
  writeFieldHashes,
  type AuditRow,
} from '../db/queries.js';
import { GENESIS_HASH, hashEntry, PRACTICE_CHAIN, verifyChain, type ChainedContent } from '../domain/chain.js';
import { clientChangeSummary, clientFieldHashes, describe, type AuditedEvent } from '../domain/summary.js';
import type { RecordsDeps } from './deps.js';

type Audited = EventOf<AuditedEvent>;

/**
 * Append one event to its client's chain, in the consumer's transaction: who (the envelope's actor),
 * when (occurredAt), from where (the actor's address), what (a summary without content). A
 * crm.client_upserted that changed nothing (a re-publish) adds no entry.
 */
export async function appendAudit(tx: DbOrTx, e: Audited): Promise<void> {
  let clientId: string | null;
  let summary: string | null;
  if (e.type === 'crm.client_upserted') {
    const data = e.data;
    clientId = data.clientId;
    await lockChain(tx, clientId);
    const before = await readFieldHashes(tx, clientId);
    const after = clientFieldHashes(data);
    summary = clientChangeSummary(before, after);
    await writeFieldHashes(tx, clientId, after);
  } else {
    ({ clientId, summary } = describe(e));
  }
  if (summary === null) return;
  await appendEntry(tx, {
    chain: clientId ?? PRACTICE_CHAIN,
    clientId,
    eventId: e.id,
    occurredAt: new Date(e.occurredAt).toISOString(),
    actorKind: e.actor.kind,
    actorId: e.actor.id,
    actorName: e.actor.name ?? null,
    ip: e.actor.ip ?? null,
    action: e.type,
    summary,
  });
}

/**
 * Chain one entry after the chain's last (or, when retention removed them all, after its checkpoint),
 * under the chain's lock.
 */
export async function appendEntry(tx: DbOrTx, c: Omit<ChainedContent, 'seq'>): Promise<void> {
  await lockChain(tx, c.chain);
  const last = (await lastOfChain(tx, c.chain)) ?? (await readCheckpoint(tx, c.chain));
  const content: ChainedContent = { ...c, seq: (last?.seq ?? 0) + 1, summary: c.summary.slice(0, 500) };
  const prevHash = last?.hash ?? GENESIS_HASH;
  await insertAudit(tx, { ...content, occurredAt: new Date(content.occurredAt), prevHash, hash: hashEntry(prevHash, content) });
}

/** Entries as the API shows them, each with its client's name (one read of the names for all). */
export async function toAuditRecords(db: DbOrTx, rows: AuditRow[]): Promise<AuditRecord[]> {
  const names = await clientNames(
    db,
    rows.map((r) => r.clientId),
  );
  return rows.map((r) => toAuditRecord(r, names));
}

function toAuditRecord(r: AuditRow, names: ReadonlyMap<string, string>): AuditRecord {
  return {
    id: String(r.id),
    client_id: r.clientId,
    client_name: r.clientId === null ? null : (names.get(r.clientId) ?? null),
    seq: r.seq,
    occurred_at: r.occurredAt.toISOString(),
    actor_kind: r.actorKind,
    actor_id: r.actorId,
    actor_name: r.actorName,
    ip: r.ip,
    action: r.action,
    summary: r.summary,
    hash: r.hash,
  };
}

/** A day that does not exist (2026-02-30) is the caller's mistake, not a database error. */
function checkDays(q: { from?: string; to?: string }) {
  for (const [path, day] of [
    ['from', q.from],
    ['to', q.to],
  ] as const) {
    const t = day ? Date.parse(`${day}T00:00:00Z`) : 0;
    if (day && (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== day))
      throw new AppError('VALIDATION_FAILED', 'Enter a real date.', [{ path, message: 'Enter a real date.' }]);
  }
}

export async function findAuditEntries(deps: RecordsDeps, q: AuditQuery): Promise<AuditList> {
  checkDays(q);
  const { rows, total } = await findAudit(
    deps.db,
    { clientId: q.client_id, actorId: q.actor_id, kind: q.kind, from: q.from, to: q.to },
    { limit: q.page_size, offset: (q.page - 1) * q.page_size },
  );
  return { entries: await toAuditRecords(deps.db, rows), total, page: q.page, page_size: q.page_size };
}

/** The CSV export: at most this many rows (narrow the filters for more). */
export const CSV_LIMIT = 50_000;

const csvCell = (v: string | number | null) => {
  const s = v === null ? '' : String(v);
  // A leading =, +, - or @ would run as a formula in a spreadsheet (CSV injection): quote it as text.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export async function auditCsv(deps: RecordsDeps, q: Omit<AuditQuery, 'page' | 'page_size'>): Promise<string> {
  checkDays(q);
  const { rows } = await findAudit(
    deps.db,
    { clientId: q.client_id, actorId: q.actor_id, kind: q.kind, from: q.from, to: q.to },
    { limit: CSV_LIMIT, offset: 0 },
  );
  const records = await toAuditRecords(deps.db, rows);
  const head = [
    'occurred_at',
    'client_id',
    'client_name',
    'seq',
    'actor_kind',
    'actor_id',
    'actor_name',
    'ip',
    'action',
    'summary',
    'hash',
  ];
  const lines = records.map((a) =>
    [a.occurred_at, a.client_id, a.client_name, a.seq, a.actor_kind, a.actor_id, a.actor_name, a.ip, a.action, a.summary, a.hash]
      .map(csvCell)
      .join(','),
  );
  return [head.join(','), ...lines].join('\r\n') + '\r\n';
}

/** Recompute a chain from its rows: an entry edited in the database (or removed from the middle) is found. */
export async function checkChain(deps: RecordsDeps, clientId: string | null): Promise<ChainCheck> {
  const chain = clientId ?? PRACTICE_CHAIN;
  if (clientId === PRACTICE_CHAIN) throw new AppError('VALIDATION_FAILED', 'Not a client id.');
  // One snapshot: a retention run between the two reads would otherwise look like a removed entry.
  const [rows, checkpoint] = await deps.db.transaction(async (tx) => Promise.all([chainRows(tx, chain), readCheckpoint(tx, chain)]), {
    isolationLevel: 'repeatable read',
    accessMode: 'read only',
  });
  const verdict = verifyChain(
    rows.map((r) => ({ ...r, occurredAt: r.occurredAt.toISOString() })),
    checkpoint,
  );
  return {
    client_id: clientId,
    entries: rows.length,
    intact: verdict.intact,
    broken_at_seq: verdict.brokenAtSeq,
    message: verdict.intact ? AUDIT_MESSAGES.intact : AUDIT_MESSAGES.broken(verdict.brokenAtSeq),
  };
}
