import { enqueueEvent, subscribe, type Runtime } from '@countinghouse/kit';
import { foldName, subjectOf, type SubjectKind } from '@countinghouse/proto';
import { listAcspRecords } from '../db/acsp.js';
import { allVersions, directoryEntry, evidenceDocumentsOf, readCompanyPeople, type Exec } from '../db/queries.js';
import { SCHEMA, type StoredPerson } from '../db/schema.js';
import { acspKeepUntil } from '../domain/acsp.js';

export const AML_SUBJECT_ACCESS_CONSUMER = 'aml.subject-access';

interface Subject {
  kind: SubjectKind;
  userId: string | null;
  personKey: string | null;
  personName: string;
}

/**
 * Is this AML person the subject? Within the one client only: a director or PSC by their key (the file's
 * person id or Companies House key), and anyone by their name as the request gives it (the AML file and
 * Companies House write names differently: foldName compares words, not their order or case).
 */
export function isSubject(p: Pick<StoredPerson, 'id' | 'ch_key' | 'name'>, s: Subject): boolean {
  if (s.kind === 'person' && s.personKey && (p.ch_key === s.personKey || p.id === s.personKey)) return true;
  const name = foldName(s.personName);
  return name !== '' && foldName(p.name) === name;
}

/**
 * What the AML service holds about one person, for their subject-access archive (UK GDPR Art. 15, issue
 * 34): their person record in each version of their client's due diligence file with the checks made
 * (identity documents by reference: id, file name, method, date, who checked), the practice's ACSP
 * identity verifications of them, and Companies House's entry for them as the file last read it. For a
 * client user (the account holder: the customer), also the file's risk assessment. Nothing of any other
 * person in the file, nor of any other client. A client user must be the client's own sign-in account.
 */
export async function amlSubjectPart(tx: Exec, d: { clientId: string } & Parameters<typeof subjectOf>[0]) {
  const s = subjectOf(d);
  const client = await directoryEntry(tx, d.clientId);
  if (!client) return [];
  if (s.kind === 'client_user' && (!s.userId || client.userId !== s.userId)) return [];
  const versions = await allVersions(tx, d.clientId);
  const filenames = new Map((await evidenceDocumentsOf(tx, d.clientId)).map((e) => [e.documentId, e.filename]));
  const keys = new Set<string>();
  const dueDiligence = versions.map((v) => {
    const people = v.content.people.filter((p) => isSubject(p, s));
    for (const p of people) keys.add(p.ch_key ?? p.id);
    return {
      version: v.version,
      state: v.state,
      created_at: v.createdAt.toISOString(),
      approved_at: v.approvedAt?.toISOString() ?? null,
      approved_by_name: v.approvedByName,
      next_review_on: v.nextReviewOn,
      ...(s.kind === 'client_user' ? { risk_answers: v.content.risk_answers, risk_assessment: v.risk } : {}),
      people: people.map(({ ch_key: _k, evidence, ...p }) => ({
        ...p,
        checks: evidence.map((e) => ({ ...e, filename: filenames.get(e.document_id) ?? null })),
      })),
    };
  });
  const verifications = (await listAcspRecords(tx, d.clientId))
    .filter(
      (r) =>
        keys.has(r.personKey) ||
        (s.kind === 'person' && r.personKey === s.personKey) ||
        isSubject({ id: '', ch_key: null, name: r.personName }, s),
    )
    .map((r) => ({
      id: r.id,
      person_name: r.personName,
      personal_code: r.personalCode,
      acsp_number: r.acspNumber,
      aml_supervisor: r.amlSupervisor,
      verified_on: r.verifiedOn,
      evidence: r.evidenceDocumentIds.map((id) => ({ document_id: id, filename: filenames.get(id) ?? null })),
      recorded_by_name: r.recordedByName,
      recorded_at: r.recordedAt.toISOString(),
      keep_until: acspKeepUntil(r.verifiedOn),
    }));
  const ch = await readCompanyPeople(tx, d.clientId);
  const named = (name: string) => isSubject({ id: '', ch_key: null, name }, s);
  const companiesHouse = ch
    ? {
        officers: ch.officers.filter((o) => named(o.name)),
        pscs: ch.pscs.filter((p) => named(p.name)),
        read_at: ch.refreshedAt.toISOString(),
      }
    : null;
  const json = (path: string, v: unknown) => ({ path, base64: Buffer.from(JSON.stringify(v, null, 2), 'utf8').toString('base64') });
  return [
    json('due-diligence.json', { client: client.companyName, versions: dueDiligence }),
    json('identity-verifications.json', verifications),
    ...(companiesHouse && (companiesHouse.officers.length || companiesHouse.pscs.length)
      ? [json('companies-house.json', companiesHouse)]
      : []),
  ];
}

/** records.subject_access_requested: the AML service's part, in one event (references, no document content). */
export async function subscribeAmlSubjectAccess(runtime: Runtime): Promise<void> {
  await subscribe(runtime, {
    group: AML_SUBJECT_ACCESS_CONSUMER,
    schema: SCHEMA,
    types: ['records.subject_access_requested'],
    handler: async (event, tx) => {
      const files = await amlSubjectPart(tx, event.data);
      await enqueueEvent(
        tx,
        SCHEMA,
        'aml.subject_access_part',
        { requestId: event.data.requestId, files, last: true },
        { actor: event.actor, key: event.data.requestId },
      );
    },
  });
}
