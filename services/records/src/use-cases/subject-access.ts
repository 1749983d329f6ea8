import { AppError, auditActor, enqueueEvent, type DbOrTx, type Principal } from '@countinghouse/kit';
import {
  SAR_MESSAGES,
  SUBJECT_ACCESS_SERVICES,
  foldName,
  londonDate,
  type SubjectAccess,
  type SubjectAccessBody,
  type SubjectAccessList,
} from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import {
  addSarFiles,
  auditByActor,
  auditOfClient,
  insertSar,
  listSars,
  readClientRetention,
  readSar,
  takeSarFiles,
  updateSar,
  type SarRow,
} from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { buildZip, dueOn } from '../domain/subject-access.js';
import { toAuditRecords } from './audit.js';
import type { RecordsDeps } from './deps.js';

function toSubjectAccess(r: Omit<SarRow, 'archive'>, companyName: string | null): SubjectAccess {
  return {
    id: r.id,
    client_id: r.clientId,
    company_name: companyName,
    subject: r.subject,
    user_id: r.userId,
    person_key: r.personKey,
    person_name: r.personName,
    requested_on: r.requestedOn,
    due_on: r.dueOn,
    status: r.status,
    answered: r.answered.length,
    expected: SUBJECT_ACCESS_SERVICES.length,
    files: r.files,
    requested_by_name: r.requestedByName,
    downloaded_by_name: r.downloadedByName,
    downloaded_at: r.downloadedAt?.toISOString() ?? null,
  };
}

/**
 * Log a subject-access request for a person: a client user, a director or PSC of the client (their key
 * in the client's people), or the client's contact. Its due date is fixed from the day it is logged, and
 * every service holding data is asked for its part about that person (records.subject_access_requested).
 */
export async function logSubjectAccess(deps: RecordsDeps, p: Principal, b: SubjectAccessBody): Promise<SubjectAccess> {
  const client = await readClientRetention(deps.db, b.client_id);
  if (!client)
    throw new AppError('VALIDATION_FAILED', SAR_MESSAGES.unknownClient, [{ path: 'client_id', message: SAR_MESSAGES.unknownClient }]);
  const subject = b.subject ?? 'client_user';
  if (subject === 'client_user' && !b.user_id)
    throw new AppError('VALIDATION_FAILED', SAR_MESSAGES.userRequired, [{ path: 'user_id', message: SAR_MESSAGES.userRequired }]);
  if (subject === 'person' && !b.person_key)
    throw new AppError('VALIDATION_FAILED', SAR_MESSAGES.personRequired, [{ path: 'person_key', message: SAR_MESSAGES.personRequired }]);
  const userId = b.user_id ?? null;
  const personKey = subject === 'person' ? b.person_key! : null;
  const personName = b.person_name.trim();
  const requestedOn = londonDate(deps.now());
  const id = randomUUID();
  const row = await deps.db.transaction(async (tx) => {
    const saved = await insertSar(tx, {
      id,
      clientId: b.client_id,
      subject,
      userId,
      personKey,
      personName,
      requestedOn,
      dueOn: dueOn(requestedOn),
      status: 'gathering',
      answered: [],
      requestedById: p.id,
      requestedByName: p.name || p.id,
    });
    await enqueueEvent(
      tx,
      SCHEMA,
      'records.subject_access_requested',
      { requestId: id, clientId: b.client_id, userId, subject, personKey, personName },
      { actor: auditActor(p), key: id },
    );
    return saved;
  });
  return toSubjectAccess(row, client.companyName);
}

export async function findSubjectAccess(deps: RecordsDeps): Promise<SubjectAccessList> {
  const rows = await listSars(deps.db);
  const names = new Map<string, string | null>();
  for (const r of rows)
    if (!names.has(r.clientId)) names.set(r.clientId, (await readClientRetention(deps.db, r.clientId))?.companyName ?? null);
  return { requests: rows.map((r) => toSubjectAccess(r, names.get(r.clientId) ?? null)) };
}

/**
 * A service's part: its files join the request; once every service has sent its last part, the archive
 * is built (with the audit entries of the person's own actions and a README) and the parts dropped.
 */
export async function receivePart(
  tx: DbOrTx,
  service: string,
  d: { requestId: string; files: Array<{ path: string; base64: string }>; last: boolean },
  now: Date,
): Promise<void> {
  const sar = await readSar(tx, d.requestId, { lock: true });
  if (!sar || sar.status !== 'gathering') return;
  await addSarFiles(
    tx,
    sar.id,
    d.files.map((f) => ({ path: `${service}/${f.path}`, content: Buffer.from(f.base64, 'base64') })),
  );
  if (!d.last || sar.answered.includes(service)) return;
  const answered = [...sar.answered, service];
  if (!SUBJECT_ACCESS_SERVICES.every((s) => answered.includes(s))) {
    await updateSar(tx, sar.id, { answered });
    return;
  }
  const parts = await takeSarFiles(tx, sar.id);
  const audit = await toAuditRecords(tx, await auditAbout(tx, sar));
  const readme = [
    `Subject-access request for ${sar.personName}`,
    `Requested on ${sar.requestedOn}; due by ${sar.dueOn} (UK GDPR Art. 12(3): one month).`,
    `Built on ${now.toISOString()}.`,
    '',
    'crm/: the business profile, or the contact details held; documents/: documents you uploaded;',
    'engagement/: your engagement letters; requests/: your secure messages;',
    'aml/: customer due diligence about you (your person record, the checks made, identity verifications);',
    'deadlines/: your identity verification with Companies House; audit/: the audit trail about you.',
  ].join('\n');
  const files = [
    { path: 'README.txt', content: Buffer.from(readme, 'utf8') },
    ...parts,
    { path: 'audit/entries.json', content: Buffer.from(JSON.stringify(audit, null, 2), 'utf8') },
  ];
  await updateSar(tx, sar.id, { answered, status: 'ready', files: files.length, archive: buildZip(files, now) });
}

/**
 * The audit entries about the person: what they did themselves (their sign-in account), and, in their
 * client's chain only, the entries that name them (an identity verification of them, a letter they signed).
 */
async function auditAbout(tx: DbOrTx, sar: SarRow) {
  const own = sar.userId ? await auditByActor(tx, sar.userId) : [];
  const name = foldName(sar.personName).split(' ').filter(Boolean);
  const naming =
    sar.subject === 'client_user' || name.length === 0
      ? []
      : (await auditOfClient(tx, sar.clientId)).filter((e) => {
          const words = new Set(foldName(e.summary).split(' '));
          return name.every((w) => words.has(w));
        });
  const seen = new Set<number>();
  return [...own, ...naming]
    .filter((e) => !seen.has(e.id) && seen.add(e.id))
    .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
}

/** The archive, once: the download is recorded (who, when) and the archive dropped. */
export async function downloadSubjectAccess(deps: RecordsDeps, p: Principal, id: string): Promise<{ zip: Buffer; filename: string }> {
  return deps.db.transaction(async (tx) => {
    const sar = await readSar(tx, id, { lock: true });
    if (!sar) throw new AppError('NOT_FOUND', SAR_MESSAGES.notFound);
    if (sar.status === 'gathering') throw new AppError('CONFLICT', SAR_MESSAGES.notReady);
    if (sar.status === 'downloaded' || !sar.archive) throw new AppError('CONFLICT', SAR_MESSAGES.downloaded);
    await updateSar(tx, id, {
      status: 'downloaded',
      archive: null,
      downloadedById: p.id,
      downloadedByName: p.name || p.id,
      downloadedAt: deps.now(),
    });
    return { zip: sar.archive, filename: `subject-access-${sar.requestedOn}-${sar.id.slice(0, 8)}.zip` };
  });
}
