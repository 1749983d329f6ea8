import { AppError, canSeeClient, clientScopeOf, enqueueEvent, type Principal } from '@countinghouse/kit';
import {
  ACSP_MESSAGES,
  AML_MESSAGES,
  hasPermission,
  isPersonalCode,
  normalisePersonalCode,
  type AcspSettings,
  type AcspSettingsInput,
  type AcspVerification,
  type AcspVerificationInput,
} from '@countinghouse/proto';
import { addAudit, directoryEntry, evidenceDocumentsOf, readFile, readVersion, type DirectoryRow, type Exec } from '../db/queries.js';
import {
  deleteAcspRecord,
  insertAcspRecord,
  listAcspRecords,
  lockAcspRecord,
  readAcspSettings,
  writeAcspSettings,
  type AcspRecordRow,
  type AcspSettingsRow,
} from '../db/acsp.js';
import { SCHEMA } from '../db/schema.js';
import { acspDeletable, acspKeepUntil } from '../domain/acsp.js';
import { actorName, IDENTITY_VERIFICATION_SCOPE } from '../domain/access.js';
import { enGb } from '../domain/dates.js';
import type { AmlDeps } from './deps.js';

type Row = AcspRecordRow;

/** Who sees a client's ACSP records (identity_verification.view): accountants only their assigned clients'. */
async function visibleClient(db: Exec, p: Principal, clientId: string): Promise<DirectoryRow> {
  if (p.kind !== 'admin' && !hasPermission(p.roles, 'identity_verification.view')) throw new AppError('FORBIDDEN', AML_MESSAGES.readOnly);
  const entry = await directoryEntry(db, clientId);
  if (!entry || !canSeeClient(clientScopeOf(p, IDENTITY_VERIFICATION_SCOPE), entry))
    throw new AppError('NOT_FOUND', AML_MESSAGES.fileNotFound);
  return entry;
}

function toRecord(r: Row, filenames: Map<string, string>): AcspVerification {
  return {
    id: r.id,
    client_id: r.clientId,
    person_key: r.personKey,
    person_name: r.personName,
    personal_code: r.personalCode,
    acsp_number: r.acspNumber,
    aml_supervisor: r.amlSupervisor,
    verified_on: r.verifiedOn,
    evidence: r.evidenceDocumentIds.map((id) => ({ document_id: id, filename: filenames.get(id) ?? '' })),
    recorded_by_name: r.recordedByName,
    recorded_at: r.recordedAt.toISOString(),
    keep_until: acspKeepUntil(r.verifiedOn),
  };
}

async function filenames(db: Exec, clientId: string) {
  return new Map((await evidenceDocumentsOf(db, clientId)).map((d) => [d.documentId, d.filename]));
}

export async function findAcspVerifications(deps: AmlDeps, p: Principal, clientId: string) {
  await visibleClient(deps.db, p, clientId);
  const rows = await listAcspRecords(deps.db, clientId);
  const names = await filenames(deps.db, clientId);
  return { items: rows.map((r) => toRecord(r, names)) };
}

/**
 * Record a verification the practice made as an ACSP: the person must be in the client's AML file and the
 * evidence must be that person's identity documents there (referenced, not copied). The record, an audit
 * line and aml.identity_verification_recorded (deadlines marks the person verified) commit together.
 */
export async function recordAcspVerification(deps: AmlDeps, p: Principal, clientId: string, input: AcspVerificationInput) {
  const client = await visibleClient(deps.db, p, clientId);
  const code = normalisePersonalCode(input.personal_code);
  if (!isPersonalCode(code))
    throw new AppError('VALIDATION_FAILED', ACSP_MESSAGES.personalCodeFormat, [
      { path: 'personal_code', message: ACSP_MESSAGES.personalCodeFormat },
    ]);
  if (input.verified_on > deps.today())
    throw new AppError('VALIDATION_FAILED', ACSP_MESSAGES.futureDate, [{ path: 'verified_on', message: ACSP_MESSAGES.futureDate }]);
  const by = actorName(p);
  const settings = await readAcspSettings(deps.db);
  if (!settings) throw new AppError('VALIDATION_FAILED', ACSP_MESSAGES.settingsMissing);
  const row = await deps.db.transaction(async (tx) => {
    const file = await readFile(tx, clientId);
    const latest = file ? await readVersion(tx, clientId, file.latestVersion) : null;
    const person = latest?.content.people.find((x) => x.ch_key === input.person_key || x.id === input.person_key);
    if (!person)
      throw new AppError('VALIDATION_FAILED', ACSP_MESSAGES.personNotInFile, [
        { path: 'person_key', message: ACSP_MESSAGES.personNotInFile },
      ]);
    const own = new Set(person.evidence.map((e) => e.document_id));
    if (!input.evidence_document_ids.every((id) => own.has(id)))
      throw new AppError('VALIDATION_FAILED', ACSP_MESSAGES.evidenceNotOfPerson, [
        { path: 'evidence_document_ids', message: ACSP_MESSAGES.evidenceNotOfPerson },
      ]);
    const personKey = person.ch_key ?? person.id;
    const made = await insertAcspRecord(tx, {
      clientId,
      personKey,
      personName: person.name,
      personalCode: code,
      acspNumber: settings.acspNumber,
      amlSupervisor: settings.amlSupervisor,
      verifiedOn: input.verified_on,
      evidenceDocumentIds: [...new Set(input.evidence_document_ids)],
      recordedBy: p.id,
      recordedByName: by,
    });
    await addAudit(tx, {
      clientId,
      version: null,
      action: 'identity_verified',
      detail: `Identity of ${person.name} verified for Companies House by the practice (ACSP) on ${enGb(input.verified_on)}`,
      actorId: p.id,
      actorName: by,
    });
    await enqueueEvent(
      tx,
      SCHEMA,
      'aml.identity_verification_recorded',
      { clientId, personKey, personName: person.name, verifiedOn: input.verified_on, byName: by, withdrawn: false },
      { actor: { kind: p.kind, id: p.id }, key: clientId },
    );
    return made;
  });
  void client;
  return { record: toRecord(row, await filenames(deps.db, clientId)), message: ACSP_MESSAGES.recorded };
}

/** Delete a record once its seven years have run; before that it is refused with the date it is kept until. */
export async function deleteAcspVerification(deps: AmlDeps, p: Principal, clientId: string, id: string) {
  if (p.kind !== 'admin' && !hasPermission(p.roles, 'identity_verification.delete'))
    throw new AppError('FORBIDDEN', 'Only an administrator can delete these records.');
  const by = actorName(p);
  await deps.db.transaction(async (tx) => {
    const row = await lockAcspRecord(tx, clientId, id);
    if (!row) throw new AppError('NOT_FOUND', ACSP_MESSAGES.notFound);
    if (!acspDeletable(row.verifiedOn, deps.today()))
      throw new AppError('CONFLICT', ACSP_MESSAGES.retentionRunning(enGb(acspKeepUntil(row.verifiedOn))));
    await deleteAcspRecord(tx, id);
    await addAudit(tx, {
      clientId,
      version: null,
      action: 'identity_verification_deleted',
      detail: `ACSP verification record of ${row.personName} (${enGb(row.verifiedOn)}) deleted after seven years`,
      actorId: p.id,
      actorName: by,
    });
    await enqueueEvent(
      tx,
      SCHEMA,
      'aml.identity_verification_recorded',
      {
        clientId,
        personKey: row.personKey,
        personName: row.personName,
        verifiedOn: row.verifiedOn,
        byName: row.recordedByName,
        withdrawn: true,
      },
      { actor: { kind: p.kind, id: p.id }, key: clientId },
    );
  });
  return { success: true, message: ACSP_MESSAGES.deleted };
}

function toSettings(row: AcspSettingsRow | null): AcspSettings {
  return {
    acsp_number: row?.acspNumber ?? null,
    aml_supervisor: row?.amlSupervisor ?? null,
    updated_at: row?.updatedAt.toISOString() ?? null,
    updated_by_name: row?.updatedByName ?? null,
  };
}

export async function getAcspSettings(deps: AmlDeps): Promise<AcspSettings> {
  return toSettings(await readAcspSettings(deps.db));
}

/** The practice's ACSP number and AML supervisor; each verification record keeps the ones in force when it was made. */
export async function saveAcspSettings(deps: AmlDeps, p: Principal, input: AcspSettingsInput) {
  const acspNumber = input.acsp_number.trim().toUpperCase();
  const amlSupervisor = input.aml_supervisor.trim();
  if (!/^[A-Z0-9][A-Z0-9-]{0,39}$/.test(acspNumber))
    throw new AppError('VALIDATION_FAILED', ACSP_MESSAGES.acspNumberFormat, [
      { path: 'acsp_number', message: ACSP_MESSAGES.acspNumberFormat },
    ]);
  if (!amlSupervisor)
    throw new AppError('VALIDATION_FAILED', ACSP_MESSAGES.settingsMissing, [
      { path: 'aml_supervisor', message: ACSP_MESSAGES.settingsMissing },
    ]);
  const row = await writeAcspSettings(deps.db, { acspNumber, amlSupervisor, updatedByName: actorName(p) });
  return { settings: toSettings(row), message: ACSP_MESSAGES.settingsSaved };
}
