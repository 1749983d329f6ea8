import { addAudit, ensureFile, readCompanyPeople, readFile, readVersion, saveDraft, startVersion, type Exec } from '../db/queries.js';
import { chPeople } from '../domain/companies-house.js';
import { mergeChPeople } from '../domain/people.js';
import { randomUUID } from 'node:crypto';

const SYSTEM_NAME = 'Companies House';

/**
 * Keep a company's file in step with Companies House (called in the consumer's transaction): new
 * officers and PSCs are added to the latest draft, or, when the latest version is approved, to a new
 * version (the approved one is never changed). Nothing is written when nothing changed.
 */
export async function syncCompanyPeople(tx: Exec, clientId: string): Promise<void> {
  const company = await readCompanyPeople(tx, clientId);
  if (!company) return;
  await ensureFile(tx, clientId);
  const file = (await readFile(tx, clientId, { lock: true }))!;
  let latest = (await readVersion(tx, clientId, file.latestVersion))!;
  const merge = mergeChPeople(latest.content.people, chPeople(company.officers, company.pscs), randomUUID);
  if (merge.added.length === 0 && merge.ceased.length === 0 && JSON.stringify(merge.people) === JSON.stringify(latest.content.people))
    return;
  if (latest.state === 'approved') {
    const next = await startVersion(tx, clientId, latest, SYSTEM_NAME);
    await addAudit(tx, {
      clientId,
      version: next,
      action: 'new_version',
      detail: `Version ${next} started: Companies House lists a change`,
      actorId: null,
      actorName: SYSTEM_NAME,
    });
    latest = (await readVersion(tx, clientId, next))!;
  }
  await saveDraft(tx, clientId, latest.version, { ...latest.content, people: merge.people }, latest.risk, 'draft', { started: false });
  const parts = [
    merge.added.length ? `added ${merge.added.join(', ')}` : '',
    merge.ceased.length ? `no longer listed: ${merge.ceased.join(', ')}` : '',
  ].filter(Boolean);
  await addAudit(tx, {
    clientId,
    version: latest.version,
    action: 'prefill',
    detail: `From Companies House (${company.companyNumber}): ${parts.join('; ') || 'details updated'}`,
    actorId: null,
    actorName: SYSTEM_NAME,
  });
}
