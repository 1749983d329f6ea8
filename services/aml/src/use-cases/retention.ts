import { AppError, enqueueEvent, type Principal } from '@countinghouse/kit';
import { AML_MESSAGES, type Actor, type DeletableList, type DeleteFileInput, type DeletionList } from '@countinghouse/proto';
import {
  deleteFile,
  deletionList,
  directoryEntry,
  endedRelationships,
  evidenceDocumentsOf,
  readFile,
  recordDeletion,
  allVersions,
  addAudit,
  type Exec,
} from '../db/queries.js';
import { deleteAcspRecord, listAcspRecords } from '../db/acsp.js';
import { SCHEMA } from '../db/schema.js';
import { acspDeletable } from '../domain/acsp.js';
import { actorName, canDelete } from '../domain/access.js';
import { addYearsBack, enGb } from '../domain/dates.js';
import { retentionVerdict, RETENTION_YEARS } from '../domain/retention.js';
import type { AmlDeps } from './deps.js';

function refuseUnlessAdmin(p: Principal) {
  if (!canDelete(p)) throw new AppError('FORBIDDEN', 'Only an administrator can delete AML files.');
}

/** Files whose five years after the relationship ended have run (reg. 40): what an administrator may delete. */
export async function findDeletable(deps: AmlDeps, p: Principal): Promise<DeletableList> {
  refuseUnlessAdmin(p);
  const today = deps.today();
  const rows = await endedRelationships(deps.db, addYearsBack(today, RETENTION_YEARS));
  return {
    items: rows
      .filter((r) => r.endedOn && retentionVerdict(r.endedOn, today).deletable)
      .map((r) => ({
        client_id: r.clientId,
        client_name: r.companyName,
        relationship_ended_on: r.endedOn!,
        keep_until: retentionVerdict(r.endedOn!, today).keepUntil!,
      })),
  };
}

export async function findDeletions(deps: AmlDeps, p: Principal): Promise<DeletionList> {
  refuseUnlessAdmin(p);
  return {
    items: (await deletionList(deps.db)).map((d) => ({
      client_id: d.clientId,
      client_name: d.clientName,
      relationship_ended_on: d.relationshipEndedOn,
      deleted_by_name: d.deletedByName,
      deleted_at: d.deletedAt.toISOString(),
      evidence_documents: d.evidenceDocuments,
    })),
  };
}

/**
 * Delete a client's AML file and its evidence, once the retention period has run; before that it is
 * refused with the date it runs to. The deletion is recorded (who, when, which client) and announced, so
 * the documents service removes the evidence files.
 */
export async function deleteAmlFile(deps: AmlDeps, p: Principal, clientId: string, input: DeleteFileInput) {
  refuseUnlessAdmin(p);
  const client = await directoryEntry(deps.db, clientId);
  if (!client || !(await readFile(deps.db, clientId))) throw new AppError('NOT_FOUND', AML_MESSAGES.fileNotFound);
  const verdict = retentionVerdict(client.relationshipEndedOn, deps.today());
  if (!verdict.deletable)
    throw new AppError(
      'CONFLICT',
      verdict.reason === 'not_ended' ? AML_MESSAGES.retentionNotEnded : AML_MESSAGES.retentionRunning(enGb(verdict.keepUntil!)),
    );
  if (input.confirm_client_name.trim() !== client.companyName.trim())
    throw new AppError('VALIDATION_FAILED', AML_MESSAGES.confirmNameMismatch, [
      { path: 'confirm_client_name', message: AML_MESSAGES.confirmNameMismatch },
    ]);
  await deps.db.transaction(async (tx) => {
    await removeFile(tx, deps.today(), clientId, {
      clientName: client.companyName,
      relationshipEndedOn: client.relationshipEndedOn!,
      deletedBy: p.id,
      deletedByName: actorName(p),
      actor: { kind: p.kind, id: p.id },
    });
  });
  return { success: true, message: AML_MESSAGES.deleted };
}

/**
 * Delete a client's file in the caller's transaction: its versions, audit, evidence list; the deletion is
 * recorded and announced (aml.file_deleted: documents removes the evidence files). Identity documents an
 * ACSP verification record still rests on are kept for its seven years (they outlive the file's five).
 * Returns what went, for the retention report.
 */
export async function removeFile(
  tx: Exec,
  today: string,
  clientId: string,
  o: { clientName: string; relationshipEndedOn: string; deletedBy: string; deletedByName: string; actor: Actor },
): Promise<{ versions: number; documentIds: string[] }> {
  await readFile(tx, clientId, { lock: true });
  const versions = await allVersions(tx, clientId);
  const fromVersions = versions.flatMap((v) => v.content.people.flatMap((x) => x.evidence.map((e) => e.document_id)));
  const announced = (await evidenceDocumentsOf(tx, clientId)).map((d) => d.documentId);
  const heldByAcsp = new Set(
    (await listAcspRecords(tx, clientId)).filter((r) => !acspDeletable(r.verifiedOn, today)).flatMap((r) => r.evidenceDocumentIds),
  );
  const documentIds = [...new Set([...announced, ...fromVersions])].filter((id) => !heldByAcsp.has(id));
  await deleteFile(tx, clientId);
  await recordDeletion(tx, {
    clientId,
    clientName: o.clientName,
    relationshipEndedOn: o.relationshipEndedOn,
    deletedBy: o.deletedBy,
    deletedByName: o.deletedByName,
    evidenceDocuments: documentIds.length,
  });
  await enqueueEvent(tx, SCHEMA, 'aml.file_deleted', { clientId, documentIds }, { actor: o.actor, key: clientId });
  return { versions: versions.length, documentIds };
}

/**
 * records.erase_requested for an AML file (issue 34: the retention schedule, at least MLR 2017 reg. 40's
 * five years after the relationship ends): the file goes as an administrator's deletion would, and the
 * answer (aml.records_erased) commits with it. No file: an empty answer.
 */
export async function eraseForRetention(
  tx: Exec,
  today: string,
  d: { runId: string; clientId: string; recordType: string; recordedBefore: string | null },
  actor: Actor,
) {
  if (d.recordType === 'acsp_verifications') return eraseVerifications(tx, today, d, actor);
  if (d.recordType !== 'aml_file') return;
  const client = await directoryEntry(tx, d.clientId);
  const file = client ? await readFile(tx, d.clientId) : null;
  let items: Array<{ id: string; label: string; files: number }> = [];
  if (client && file) {
    const removed = await removeFile(tx, today, d.clientId, {
      clientName: client.companyName,
      relationshipEndedOn: client.relationshipEndedOn ?? today,
      deletedBy: 'retention',
      deletedByName: 'Retention schedule',
      actor,
    });
    items = [
      {
        id: d.clientId,
        label: `AML file (${removed.versions} versions, ${removed.documentIds.length} evidence files)`,
        files: removed.documentIds.length,
      },
    ];
  }
  await enqueueEvent(
    tx,
    SCHEMA,
    'aml.records_erased',
    { runId: d.runId, clientId: d.clientId, recordType: 'aml_file', items },
    { actor, key: d.clientId },
  );
}

/**
 * records.erase_requested for ACSP identity verification records (issue 34; kept 7 years after the
 * verification, Companies House's ACSP conditions): those verified before the request's day go, and never
 * one inside its seven years (the table's trigger would refuse it anyway). Each is withdrawn as an
 * administrator's deletion is (aml.identity_verification_recorded, withdrawn: deadlines follows). Identity
 * documents kept only for these records (their AML file already deleted) go too, through
 * aml.file_deleted as the file's other evidence did. The answer (aml.records_erased) commits with it.
 */
export async function eraseVerifications(
  tx: Exec,
  today: string,
  d: { runId: string; clientId: string; recordedBefore: string | null },
  actor: Actor,
) {
  const all = await listAcspRecords(tx, d.clientId);
  const expired = all.filter((r) => acspDeletable(r.verifiedOn, today) && (d.recordedBefore === null || r.verifiedOn < d.recordedBefore));
  const items: Array<{ id: string; label: string; files: number }> = [];
  const kept = new Set(all.filter((r) => !expired.includes(r)).flatMap((r) => r.evidenceDocumentIds));
  const fileGone = !(await readFile(tx, d.clientId));
  const released: string[] = [];
  for (const r of expired) {
    await deleteAcspRecord(tx, r.id);
    const docs = fileGone ? r.evidenceDocumentIds.filter((id) => !kept.has(id) && !released.includes(id)) : [];
    released.push(...docs);
    await addAudit(tx, {
      clientId: d.clientId,
      version: null,
      action: 'identity_verification_deleted',
      detail: `ACSP verification record of ${r.personName} (${enGb(r.verifiedOn)}) deleted by the retention schedule`,
      actorId: null,
      actorName: 'Retention schedule',
    });
    await enqueueEvent(
      tx,
      SCHEMA,
      'aml.identity_verification_recorded',
      {
        clientId: d.clientId,
        personKey: r.personKey,
        personName: r.personName,
        verifiedOn: r.verifiedOn,
        byName: r.recordedByName,
        withdrawn: true,
      },
      { actor, key: d.clientId },
    );
    items.push({ id: r.id, label: `ACSP identity verification of ${r.personName} (${enGb(r.verifiedOn)})`, files: docs.length });
  }
  if (released.length)
    await enqueueEvent(tx, SCHEMA, 'aml.file_deleted', { clientId: d.clientId, documentIds: released }, { actor, key: d.clientId });
  await enqueueEvent(
    tx,
    SCHEMA,
    'aml.records_erased',
    { runId: d.runId, clientId: d.clientId, recordType: 'acsp_verifications', items },
    { actor, key: d.clientId },
  );
}
