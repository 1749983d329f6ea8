import { AppError, enqueueEvent, type Principal } from '@countinghouse/kit';
import {
  AML_MESSAGES,
  DD_LABELS,
  RISK_LABELS,
  VERIFICATION_METHODS,
  WORKSPACE_MESSAGES,
  type AmlFile,
  type AmlReturnInput,
  type ApproveInput,
  type EvidenceInput,
  type PersonInput,
  type RiskAnswers,
} from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import {
  addAudit,
  approveVersion,
  ensureFile,
  evidenceDocument,
  readFile,
  readVersion,
  saveDraft,
  startVersion,
  type Exec,
  type VersionRow,
} from '../db/queries.js';
import { SCHEMA, type VersionContent } from '../db/schema.js';
import { actorName, canApprove, canEdit } from '../domain/access.js';
import { enGb } from '../domain/dates.js';
import { applyPersonInput, submitBlocker } from '../domain/people.js';
import { nextReviewOn } from '../domain/review.js';
import { RETURN_DETAIL_PREFIX } from '../domain/returns.js';
import { assessRisk } from '../domain/risk.js';
import type { AmlDeps } from './deps.js';
import { readWholeFile, visibleClient } from './read-file.js';

type Change = {
  content: VersionContent;
  action: string;
  detail: string;
  submit?: boolean;
  /** Runs in the change's transaction after it is saved (e.g. its event). */
  after?: (tx: Exec, version: number) => Promise<unknown>;
};

/**
 * The one way a file changes: under a lock on the file, on its latest version if that is a draft (or
 * awaiting approval, which sends it back to draft), else on a new version copied from the approved one.
 * The change and its audit entry commit together.
 */
async function changeFile(
  deps: AmlDeps,
  p: Principal,
  clientId: string,
  change: (latest: VersionRow, tx: Exec) => Promise<Change> | Change,
): Promise<AmlFile> {
  if (!canEdit(p)) throw new AppError('FORBIDDEN', AML_MESSAGES.readOnly);
  const client = await visibleClient(deps.db, p, clientId);
  return deps.db.transaction(async (tx) => {
    await ensureFile(tx, clientId);
    const file = (await readFile(tx, clientId, { lock: true }))!;
    let latest = (await readVersion(tx, clientId, file.latestVersion))!;
    if (latest.state === 'approved') {
      const next = await startVersion(tx, clientId, latest, actorName(p));
      await addAudit(tx, {
        clientId,
        version: next,
        action: 'new_version',
        detail: `Version ${next} started from approved version ${latest.version}`,
        actorId: p.id,
        actorName: actorName(p),
      });
      latest = (await readVersion(tx, clientId, next))!;
    }
    const c = await change(latest, tx);
    const risk = c.content.risk_answers ? assessRisk(c.content.risk_answers) : null;
    await saveDraft(tx, clientId, latest.version, c.content, risk, c.submit ? 'awaiting_approval' : 'draft');
    await addAudit(tx, { clientId, version: latest.version, action: c.action, detail: c.detail, actorId: p.id, actorName: actorName(p) });
    if (c.after) await c.after(tx, latest.version);
    return readWholeFile(tx, p, client, deps.today());
  });
}

function findPerson(content: VersionContent, personId: string) {
  const person = content.people.find((x) => x.id === personId);
  if (!person) throw new AppError('NOT_FOUND', AML_MESSAGES.personNotFound);
  return person;
}

export function addPerson(deps: AmlDeps, p: Principal, clientId: string, input: PersonInput) {
  return changeFile(deps, p, clientId, (v) => {
    const person = applyPersonInput({ id: randomUUID(), source: 'manual', ch_key: null, ceased_on: null, evidence: [], ...input }, input);
    return {
      content: { ...v.content, people: [...v.content.people, person] },
      action: 'change',
      detail: `Added ${person.name} (${person.role})`,
    };
  });
}

export function updatePerson(deps: AmlDeps, p: Principal, clientId: string, personId: string, input: PersonInput) {
  return changeFile(deps, p, clientId, (v) => {
    const before = findPerson(v.content, personId);
    const after = applyPersonInput(before, input);
    const fields = (['name', 'date_of_birth', 'address', 'role', 'ownership_band'] as const).filter((k) => before[k] !== after[k]);
    return {
      content: { ...v.content, people: v.content.people.map((x) => (x.id === personId ? after : x)) },
      action: 'change',
      detail: `Changed ${after.name}: ${fields.join(', ').replaceAll('_', ' ') || 'nothing'}`,
    };
  });
}

export function removePerson(deps: AmlDeps, p: Principal, clientId: string, personId: string) {
  return changeFile(deps, p, clientId, (v) => {
    const person = findPerson(v.content, personId);
    return {
      content: { ...v.content, people: v.content.people.filter((x) => x.id !== personId) },
      action: 'change',
      detail: `Removed ${person.name} from this version`,
    };
  });
}

/** Wait (briefly) for the documents service's announcement of an upload made a moment ago. */
async function announcedDocument(deps: AmlDeps, documentId: string) {
  const until = Date.now() + deps.evidenceWaitMs;
  for (;;) {
    const doc = await evidenceDocument(deps.db, documentId);
    if (doc || Date.now() >= until) return doc;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function addEvidence(deps: AmlDeps, p: Principal, clientId: string, personId: string, input: EvidenceInput) {
  if (!canEdit(p)) throw new AppError('FORBIDDEN', AML_MESSAGES.readOnly);
  const doc = await announcedDocument(deps, input.document_id);
  // Only identity evidence uploaded for this very client (documents' type aml_evidence) can be attached.
  if (!doc || doc.clientId !== clientId)
    throw new AppError('VALIDATION_FAILED', AML_MESSAGES.evidenceOtherClient, [
      { path: 'document_id', message: AML_MESSAGES.evidenceOtherClient },
    ]);
  const method = VERIFICATION_METHODS.find((m) => m.value === input.method)!.label.toLowerCase();
  return changeFile(deps, p, clientId, (v) => {
    const person = findPerson(v.content, personId);
    const evidence = {
      id: randomUUID(),
      document_id: input.document_id,
      method: input.method,
      checked_on: input.checked_on,
      checked_by_id: p.id,
      checked_by_name: actorName(p),
      added_at: new Date().toISOString(),
    };
    return {
      content: {
        ...v.content,
        people: v.content.people.map((x) => (x.id === person.id ? { ...x, evidence: [...x.evidence, evidence] } : x)),
      },
      action: 'upload',
      detail: `Identity evidence for ${person.name}: ${doc.filename}, checked ${method} on ${enGb(input.checked_on)}`,
    };
  });
}

export function answerRisk(deps: AmlDeps, p: Principal, clientId: string, answers: RiskAnswers) {
  return changeFile(deps, p, clientId, (v) => {
    const r = assessRisk(answers);
    return {
      content: { ...v.content, risk_answers: answers },
      action: 'change',
      detail: `Risk assessment: ${RISK_LABELS[r.level]} risk, ${DD_LABELS[r.due_diligence].toLowerCase()}${r.reasons.length ? ` (${r.reasons.join('; ')})` : ''}`,
    };
  });
}

export function submitFile(deps: AmlDeps, p: Principal, clientId: string) {
  return changeFile(deps, p, clientId, (v) => {
    if (v.state === 'awaiting_approval') throw new AppError('CONFLICT', AML_MESSAGES.nothingToSubmit);
    const blocker = submitBlocker(v.content.people, v.content.risk_answers !== null);
    if (blocker)
      throw new AppError(
        'VALIDATION_FAILED',
        blocker.kind === 'people'
          ? AML_MESSAGES.submitNeedsPeople
          : blocker.kind === 'evidence'
            ? AML_MESSAGES.submitNeedsEvidence(blocker.name)
            : AML_MESSAGES.submitNeedsRisk,
      );
    return {
      content: v.content,
      action: 'submit',
      detail: `Version ${v.version} sent for the MLRO's approval`,
      submit: true,
      after: (tx, version) =>
        enqueueEvent(
          tx,
          SCHEMA,
          'aml.file_submitted',
          { clientId, version, submittedByName: actorName(p) },
          { actor: { kind: p.kind, id: p.id }, key: clientId },
        ),
    };
  });
}

/** Start the next version by hand (a change to an approved file does it by itself). */
export function startNewVersion(deps: AmlDeps, p: Principal, clientId: string) {
  return changeFile(deps, p, clientId, (v) => ({ content: v.content, action: 'change', detail: `Working on version ${v.version}` }));
}

/**
 * The MLRO returns the version awaiting approval to draft, with a reason (issue 26): the preparer
 * sees it on the file, changes what is asked and sends it again. Audited and announced.
 */
export async function returnFile(deps: AmlDeps, p: Principal, clientId: string, input: AmlReturnInput): Promise<AmlFile> {
  if (!canApprove(p)) throw new AppError('FORBIDDEN', AML_MESSAGES.mlroOnly);
  const client = await visibleClient(deps.db, p, clientId);
  const reason = input.reason.trim();
  return deps.db.transaction(async (tx) => {
    const file = await readFile(tx, clientId, { lock: true });
    if (!file || file.latestState !== 'awaiting_approval') throw new AppError('CONFLICT', WORKSPACE_MESSAGES.amlNotAwaiting);
    const v = (await readVersion(tx, clientId, file.latestVersion))!;
    await saveDraft(tx, clientId, v.version, v.content, v.risk, 'draft');
    await addAudit(tx, {
      clientId,
      version: v.version,
      action: 'return',
      detail: `${RETURN_DETAIL_PREFIX(v.version)}${reason}`,
      actorId: p.id,
      actorName: actorName(p),
    });
    await enqueueEvent(
      tx,
      SCHEMA,
      'aml.file_returned',
      { clientId, version: v.version, reason, returnedByName: actorName(p) },
      { actor: { kind: p.kind, id: p.id }, key: clientId },
    );
    return readWholeFile(tx, p, client, deps.today());
  });
}

/** The MLRO's sign-off: the version is approved, in force until its review date; announced by event. */
export async function approveFile(deps: AmlDeps, p: Principal, clientId: string, input: ApproveInput): Promise<AmlFile> {
  if (!canApprove(p)) throw new AppError('FORBIDDEN', AML_MESSAGES.mlroOnly);
  const client = await visibleClient(deps.db, p, clientId);
  const today = deps.today();
  const out = await deps.db.transaction(async (tx) => {
    const file = await readFile(tx, clientId, { lock: true });
    if (!file || file.latestState !== 'awaiting_approval') throw new AppError('CONFLICT', AML_MESSAGES.notAwaitingApproval);
    const v = (await readVersion(tx, clientId, file.latestVersion))!;
    const risk = v.risk ?? assessRisk(v.content.risk_answers!);
    const review = nextReviewOn(today, risk.level);
    await approveVersion(tx, clientId, v.version, {
      by: p.id,
      byName: actorName(p),
      note: input.note.trim(),
      nextReviewOn: review,
      riskLevel: risk.level,
    });
    await addAudit(tx, {
      clientId,
      version: v.version,
      action: 'approve',
      detail: `Approved version ${v.version}: ${RISK_LABELS[risk.level]} risk, ${DD_LABELS[risk.due_diligence].toLowerCase()}, next review ${enGb(review)}. Note: ${input.note.trim()}`,
      actorId: p.id,
      actorName: actorName(p),
    });
    await enqueueEvent(
      tx,
      SCHEMA,
      'aml.file_approved',
      {
        clientId,
        clientName: client.companyName,
        version: v.version,
        riskLevel: risk.level,
        dueDiligence: risk.due_diligence,
        nextReviewOn: review,
        approvedByName: actorName(p),
      },
      { actor: { kind: p.kind, id: p.id }, key: clientId },
    );
    return readWholeFile(tx, p, client, today);
  });
  return out;
}
