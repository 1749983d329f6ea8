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
  type Exec,
} from '../db/queries.js';
import { listAcspRecords } from '../db/acsp.js';
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
export async function eraseForRetention(tx: Exec, today: string, d: { runId: string; clientId: string; recordType: string }, actor: Actor) {
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
