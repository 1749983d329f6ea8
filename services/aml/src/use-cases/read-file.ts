import { AppError, auditActor, canSeeClient, enqueueEvent, type Principal } from '@countinghouse/kit';
import { AML_MESSAGES, type AmlFile, type AmlVersion } from '@countinghouse/proto';
import {
  addAudit,
  auditOf,
  directoryEntry,
  evidenceDocumentsOf,
  readCompanyPeople,
  readFile,
  readVersion,
  versionList,
  type DirectoryRow,
  type Exec,
  type VersionRow,
} from '../db/queries.js';
import { actorName, canApprove, canDelete, canEdit, viewScopeOf } from '../domain/access.js';
import { enGb } from '../domain/dates.js';
import { RETURN_DETAIL_PREFIX } from '../domain/returns.js';
import { retentionVerdict } from '../domain/retention.js';
import { amlStatus, isOutstanding } from '../domain/status.js';
import { SCHEMA } from '../db/schema.js';
import type { AmlDeps } from './deps.js';

/** The client, if the principal may see its file; 404 otherwise (ids cannot be probed), 403 for no AML access at all. */
export async function visibleClient(db: Exec, p: Principal, clientId: string): Promise<DirectoryRow> {
  const scope = viewScopeOf(p);
  if (!scope) throw new AppError('FORBIDDEN', AML_MESSAGES.readOnly);
  const entry = await directoryEntry(db, clientId);
  if (!entry || !canSeeClient(scope, entry)) throw new AppError('NOT_FOUND', AML_MESSAGES.fileNotFound);
  return entry;
}

export function toVersion(row: VersionRow, filenames: Map<string, string>): AmlVersion {
  return {
    version: row.version,
    state: row.state,
    people: row.content.people.map(({ ch_key, ...p }) => ({
      ...p,
      person_key: ch_key,
      evidence: p.evidence.map((e) => ({ ...e, filename: filenames.get(e.document_id) ?? null })),
    })),
    risk_answers: row.content.risk_answers,
    risk: row.risk,
    created_at: row.createdAt.toISOString(),
    created_by_name: row.createdByName,
    approved_at: row.approvedAt?.toISOString() ?? null,
    approved_by_name: row.approvedByName,
    approval_note: row.approvalNote,
    next_review_on: row.nextReviewOn,
  };
}

async function filenamesOf(db: Exec, clientId: string): Promise<Map<string, string>> {
  // Only documents announced for this very client: a document id of another client shows no name.
  return new Map((await evidenceDocumentsOf(db, clientId)).map((d) => [d.documentId, d.filename]));
}

/** A client's AML file as the screen shows it. Reading it is recorded in its audit trail. */
export async function getFile(deps: AmlDeps, p: Principal, clientId: string): Promise<AmlFile> {
  const client = await visibleClient(deps.db, p, clientId);
  const today = deps.today();
  await deps.db.transaction(async (tx) => {
    await addAudit(tx, { clientId, version: null, action: 'view', detail: 'Viewed the file', actorId: p.id, actorName: actorName(p) });
    // The practice-wide audit trail (records service, issue 34) records it too, with the address.
    await enqueueEvent(
      tx,
      SCHEMA,
      'aml.record_viewed',
      { clientId, record: 'aml_file', recordId: null, label: 'AML file' },
      { actor: auditActor(p), key: clientId },
    );
  });
  return readWholeFile(deps.db, p, client, today);
}

export async function readWholeFile(db: Exec, p: Principal, client: DirectoryRow, today: string): Promise<AmlFile> {
  const clientId = client.clientId;
  const file = await readFile(db, clientId);
  const [latest, list, trail, names, company] = await Promise.all([
    file ? readVersion(db, clientId, file.latestVersion) : Promise.resolve(null),
    versionList(db, clientId),
    auditOf(db, clientId),
    filenamesOf(db, clientId),
    readCompanyPeople(db, clientId),
  ]);
  const status = amlStatus(
    {
      latestState: file?.latestState ?? 'draft',
      approvedNextReviewOn: file?.approvedNextReviewOn ?? null,
      started: Boolean(file?.startedAt),
    },
    today,
  );
  const verdict = retentionVerdict(client.relationshipEndedOn, today);
  const empty: AmlVersion = {
    version: 1,
    state: 'draft',
    people: [],
    risk_answers: null,
    risk: null,
    created_at: new Date().toISOString(),
    created_by_name: 'System',
    approved_at: null,
    approved_by_name: null,
    approval_note: null,
    next_review_on: null,
  };
  return {
    client_id: clientId,
    client_name: client.companyName,
    business_type: client.businessType,
    subscription_status: client.subscriptionStatus,
    company_number: company?.companyNumber ?? null,
    status,
    outstanding: isOutstanding(status),
    approved_version: file?.approvedVersion ?? null,
    current: latest ? toVersion(latest, names) : empty,
    versions: list.map((v) => ({ version: v.version, state: v.state, approved_at: v.approvedAt?.toISOString() ?? null })),
    retention: {
      relationship_ended_on: client.relationshipEndedOn,
      keep_until: verdict.keepUntil,
      deletable: verdict.deletable,
      reason: verdict.deletable
        ? `Kept until ${enGb(verdict.keepUntil)}; it may now be deleted.`
        : verdict.reason === 'not_ended'
          ? AML_MESSAGES.retentionNotEnded
          : AML_MESSAGES.retentionRunning(enGb(verdict.keepUntil!)),
    },
    can: {
      edit: canEdit(p),
      approve: canApprove(p) && file?.latestState === 'awaiting_approval',
      delete: canDelete(p) && verdict.deletable,
    },
    returned: returnedOf(trail, file?.latestState ?? 'draft'),
    audit: trail.map((a) => ({
      id: String(a.id),
      version: a.version,
      action: a.action,
      detail: a.detail,
      actor_name: a.actorName,
      at: a.at.toISOString(),
    })),
  };
}

/** One version, read only (earlier versions stay readable after a later one is approved). */
export async function getVersion(deps: AmlDeps, p: Principal, clientId: string, version: number): Promise<AmlVersion> {
  await visibleClient(deps.db, p, clientId);
  const row = await readVersion(deps.db, clientId, version);
  if (!row) throw new AppError('NOT_FOUND', AML_MESSAGES.fileNotFound);
  await addAudit(deps.db, {
    clientId,
    version,
    action: 'view',
    detail: `Viewed version ${version}`,
    actorId: p.id,
    actorName: actorName(p),
  });
  return toVersion(row, await filenamesOf(deps.db, clientId));
}

/**
 * The MLRO's last return, while the file is a draft because of it: the newest of the submissions and
 * returns in the trail (newest first) is a return.
 */
function returnedOf(
  trail: Array<{ action: string; detail: string; actorName: string; at: Date; version: number | null }>,
  latestState: string,
) {
  if (latestState !== 'draft') return null;
  const last = trail.find((a) => a.action === 'return' || a.action === 'submit' || a.action === 'approve');
  if (!last || last.action !== 'return' || last.version === null) return null;
  const prefix = RETURN_DETAIL_PREFIX(last.version);
  const reason = last.detail.startsWith(prefix) ? last.detail.slice(prefix.length) : last.detail;
  return { reason, by_name: last.actorName, at: last.at.toISOString() };
}
