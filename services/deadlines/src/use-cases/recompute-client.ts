import { enqueueEvent } from '@countinghouse/kit';
import type { DeadlineKind, TaxProfileInput } from '@countinghouse/proto';
import { companyFactsOf } from '../adapters/companies-house/snapshot.js';
import {
  directoryEntry,
  insertDeadlines,
  markDone,
  readCompany,
  readMtdObligations,
  readPracticeVerifications,
  readProfile,
  profileOf,
  recordChanges,
  replaceIdentityPeople,
  removeDeadlines,
  storedDeadlines,
  updateDeadline,
} from '../db/queries.js';
import { computeDeadlines, type ComputedDeadline } from '../domain/engine.js';
import { identityStatus, idvPeople } from '../domain/identity-verification.js';
import { reconcile, type DateMove } from '../domain/reconcile.js';
import { engineWindow } from '../domain/status.js';
import { SCHEMA } from '../db/schema.js';
import type { Tx } from './deps.js';

export interface Recomputed {
  moves: Array<DateMove & { kind: DeadlineKind; period: string }>;
  inserted: number;
  removed: number;
}

/**
 * Bring one client's stored deadlines in line with its profile and Companies House answer, inside the
 * caller's transaction. Dates that move are recorded in deadline_changes with the reason.
 */
export async function recomputeClient(
  tx: Tx,
  clientId: string,
  today: string,
  reason: 'profile' | 'companies_house' | 'daily' | 'hmrc',
): Promise<Recomputed> {
  const [profileRow, companyRow, stored, entry, practice, mtdObligations] = await Promise.all([
    readProfile(tx, clientId),
    readCompany(tx, clientId),
    storedDeadlines(tx, clientId),
    directoryEntry(tx, clientId),
    readPracticeVerifications(tx, clientId),
    readMtdObligations(tx, clientId),
  ]);
  const profile: TaxProfileInput = profileOf(profileRow);
  const snapshot = profile.company_number && companyRow?.snapshot ? companyRow.snapshot : null;
  const company = snapshot ? companyFactsOf(snapshot) : null;
  const window = engineWindow(today);
  const people = snapshot ? idvPeople(snapshot.officers, snapshot.pscs) : [];
  const identity = { people, practice };
  const computed = profileRow
    ? computeDeadlines({ profile, company, businessType: entry?.businessType ?? null, ...window, identity, mtdObligations })
    : [];
  // The identity verification view's rows: one per person, as the rules see them today.
  const idvCompany = {
    confirmationNextMadeUpTo: company?.confirmationNextMadeUpTo ?? null,
    confirmationNextDue: company?.confirmationNextDue ?? null,
  };
  await replaceIdentityPeople(
    tx,
    clientId,
    people.map((p, position) => {
      const pv = practice.get(p.key) ?? null;
      const s = identityStatus(p, idvCompany, today, pv);
      return {
        personKey: p.key,
        position,
        name: p.name,
        personKind: p.kind,
        startedOn: p.startedOn,
        details: p.details,
        verifiedOn: s.status === 'verified' ? s.verifiedOn : null,
        verifiedBy: s.status === 'verified' ? s.by : null,
        verifiedSource: s.status === 'verified' ? (p.details?.identity_verified_on ? 'companies_house' : 'practice') : null,
        dueOn: s.status === 'due' || s.status === 'overdue' ? s.dueOn : null,
        dueSource: s.status === 'due' || s.status === 'overdue' ? s.source : null,
        dueRule: s.status === 'due' || s.status === 'overdue' ? s.rule : null,
      };
    }),
    entry?.assignedAccountantId ?? null,
  );
  const r = reconcile(stored, computed, window);
  await insertDeadlines(tx, clientId, r.insert, entry?.assignedAccountantId ?? null);
  for (const u of r.update) await updateDeadline(tx, u.id, u.next);
  await removeDeadlines(tx, r.remove);
  const byId = new Map(r.update.map((u) => [u.id, u.next]));
  const moves = r.moves.map((m) => ({ ...m, kind: byId.get(m.id)!.kind, period: byId.get(m.id)!.period }));
  await recordChanges(
    tx,
    moves.map((m) => ({ deadlineId: m.id, clientId, kind: m.kind, period: m.period, fromDue: m.from, toDue: m.to, reason })),
  );
  const doneByHmrc = await markFulfilledDone(tx, clientId, computed);
  if (r.insert.length > 0 || r.update.length > 0 || r.remove.length > 0 || doneByHmrc > 0) {
    // The client's list as it now stands, for the services that act ahead of deadlines (requests).
    const now = await storedDeadlines(tx, clientId);
    await enqueueEvent(
      tx,
      SCHEMA,
      'deadlines.client_deadlines',
      {
        clientId,
        deadlines: now.map((d) => ({
          deadlineId: d.id,
          kind: d.kind,
          period: d.period,
          dueOn: d.dueOn,
          done: d.doneAt !== null,
        })),
      },
      { actor: { kind: 'system', id: null }, key: clientId },
    );
  }
  return { moves, inserted: r.insert.length, removed: r.remove.length };
}

/**
 * What HMRC has received (a fulfilled MTD obligation) is done: marked so, filed on the day HMRC received
 * it, by "HMRC", and announced as any done deadline is (deadlines.deadline_done). A deadline done by hand
 * stays as it is. Returns how many were marked.
 */
async function markFulfilledDone(tx: Tx, clientId: string, computed: ComputedDeadline[]): Promise<number> {
  const fulfilled = new Map(computed.filter((c) => c.fulfilledOn).map((c) => [c.key, c]));
  if (fulfilled.size === 0) return 0;
  let marked = 0;
  for (const s of await storedDeadlines(tx, clientId)) {
    const c = fulfilled.get(s.key);
    if (!c || s.doneAt) continue;
    const doneAt = await markDone(tx, s.id, HMRC_ACTOR, { filedOn: c.fulfilledOn!, reference: null, previousAgent: false });
    if (!doneAt) continue;
    marked++;
    await enqueueEvent(
      tx,
      SCHEMA,
      'deadlines.deadline_done',
      {
        deadlineId: s.id,
        clientId,
        kind: s.kind,
        period: c.period,
        dueOn: c.dueOn,
        doneAt: doneAt.toISOString(),
        doneByName: HMRC_ACTOR.name,
        filedOn: c.fulfilledOn!,
        reference: null,
        filedByPreviousAgent: false,
      },
      { actor: { kind: 'system', id: null }, key: clientId },
    );
  }
  return marked;
}

/** Who marks done what HMRC received (decision 601). */
const HMRC_ACTOR = { id: 'hmrc', name: 'HMRC' } as const;
