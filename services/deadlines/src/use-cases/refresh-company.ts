import { AppError, enqueueEvent } from '@countinghouse/kit';
import { DEADLINES_MESSAGES, type Actor } from '@countinghouse/proto';
import { CompaniesHouseError } from '../adapters/companies-house/client.js';
import { snapshotOf } from '../adapters/companies-house/snapshot.js';
import { readProfile, profileOf, saveCompany } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import type { DeadlinesDeps } from './deps.js';
import { recomputeClient, type Recomputed } from './recompute-client.js';

export type RefreshOutcome = { ok: true; result: Recomputed } | { ok: false; error: string; kind: CompaniesHouseError['kind'] };

/**
 * Read a linked client's company from Companies House (profile, officers, PSCs; three requests), cache
 * it, move changed dates and announce deadlines.company_refreshed, all in one transaction. A failure
 * keeps the last good answer and records why.
 */
export async function refreshCompany(deps: DeadlinesDeps, clientId: string, actor: Actor): Promise<RefreshOutcome> {
  const ch = deps.companiesHouse;
  if (!ch) throw new AppError('NOT_CONFIGURED', DEADLINES_MESSAGES.companiesHouseNotConfigured);
  const profileRow = await readProfile(deps.db, clientId);
  const number = profileOf(profileRow).company_number;
  if (!number) return { ok: false, error: 'No company number', kind: 'not_found' };
  try {
    const [profile, officers, pscs] = await Promise.all([ch.companyProfile(number), ch.officers(number), ch.pscs(number)]);
    const snapshot = snapshotOf(profile, officers, pscs, new Date());
    const result = await deps.db.transaction(async (t) => {
      const tx = t;
      await saveCompany(tx, clientId, number, snapshot, null);
      const r = await recomputeClient(tx, clientId, deps.today(), 'companies_house');
      await enqueueEvent(
        tx,
        SCHEMA,
        'deadlines.company_refreshed',
        {
          clientId,
          companyNumber: number,
          companyName: profile.companyName,
          companyStatus: profile.companyStatus,
          officers,
          pscs,
          changes: r.moves.map((m) => ({ kind: m.kind, period: m.period, from: m.from, to: m.to })),
        },
        { actor, key: clientId },
      );
      return r;
    });
    return { ok: true, result };
  } catch (err) {
    if (!(err instanceof CompaniesHouseError)) throw err;
    const message = err.kind === 'not_found' ? DEADLINES_MESSAGES.companyNotFound : DEADLINES_MESSAGES.companiesHouseUnavailable;
    deps.logger.warn({ clientId, number, kind: err.kind, err: err.message }, 'companies house refresh failed');
    await deps.db.transaction(async (t) => {
      const tx = t;
      await saveCompany(tx, clientId, number, null, message);
      // A company number Companies House does not know leaves the rules to work from the hand-entered fields.
      await recomputeClient(tx, clientId, deps.today(), 'companies_house');
    });
    return { ok: false, error: message, kind: err.kind };
  }
}
