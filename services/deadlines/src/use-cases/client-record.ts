import { AppError, canSeeClient, clientScopeOf, type ClientScope, type Db, type Principal } from '@countinghouse/kit';
import {
  DEADLINES_MESSAGES,
  normaliseCompanyNumber,
  validateTaxProfile,
  type ClientTaxRecord,
  type TaxProfileInput,
} from '@countinghouse/proto';
import { directoryEntry, profileOf, readCompany, readProfile, saveProfile, deleteCompany, type DirectoryRow } from '../db/queries.js';
import { CLIENT_SCOPE, manageScopeOf } from '../domain/access.js';
import type { DeadlinesDeps } from './deps.js';
import { recomputeClient } from './recompute-client.js';
import { refreshCompany } from './refresh-company.js';

/** The client's directory entry if the principal may see it under the scope; 404 either way otherwise (no probing). */
export async function visibleClient(db: Db, scope: ClientScope | null, clientId: string): Promise<DirectoryRow> {
  const entry = await directoryEntry(db, clientId);
  if (!entry) throw new AppError('NOT_FOUND', DEADLINES_MESSAGES.clientNotFound);
  if (!scope || !canSeeClient(scope, entry)) throw new AppError('FORBIDDEN', 'You can only see the deadlines of your own clients');
  return entry;
}

export async function getClientRecord(deps: DeadlinesDeps, principal: Principal, clientId: string): Promise<ClientTaxRecord> {
  const entry = await visibleClient(deps.db, clientScopeOf(principal, CLIENT_SCOPE), clientId);
  return buildRecord(deps, entry);
}

async function buildRecord(deps: DeadlinesDeps, entry: DirectoryRow): Promise<ClientTaxRecord> {
  const [profileRow, company] = await Promise.all([readProfile(deps.db, entry.clientId), readCompany(deps.db, entry.clientId)]);
  const profile = profileOf(profileRow);
  const linked = company && profile.company_number && company.companyNumber === profile.company_number;
  return {
    client_id: entry.clientId,
    client_name: entry.companyName,
    business_type: entry.businessType,
    profile,
    companies_house_configured: deps.companiesHouse !== null,
    company: linked ? (company.snapshot ?? null) : null,
    company_error: linked ? (company.error ?? null) : null,
    updated_at: profileRow?.updatedAt.toISOString() ?? null,
    updated_by_name: profileRow?.updatedByName ?? null,
  };
}

/**
 * Save a client's tax profile and recompute its deadlines in one transaction. A new company number is
 * then read from Companies House (when configured) and its dates applied.
 */
export async function saveTaxProfile(
  deps: DeadlinesDeps,
  principal: Principal,
  clientId: string,
  input: TaxProfileInput,
): Promise<{ record: ClientTaxRecord; message: string }> {
  const entry = await visibleClient(deps.db, manageScopeOf(principal), clientId);
  const problems = validateTaxProfile(input);
  if (problems.length > 0) throw new AppError('VALIDATION_FAILED', problems[0]!.message, problems);
  const number = input.company_number?.trim() ? normaliseCompanyNumber(input.company_number) : null;
  const profile: TaxProfileInput = { ...input, company_number: number };
  const actor = { id: principal.id, name: principal.name || principal.id };
  const before = profileOf(await readProfile(deps.db, clientId));
  await deps.db.transaction(async (t) => {
    const tx = t;
    await saveProfile(tx, clientId, profile, number, actor);
    if (!number) await deleteCompany(tx, clientId);
    await recomputeClient(tx, clientId, deps.today(), 'profile');
  });
  let message: string = DEADLINES_MESSAGES.profileSaved;
  if (number && deps.companiesHouse) {
    const cached = await readCompany(deps.db, clientId);
    if (number !== before.company_number || !cached?.snapshot) {
      const outcome = await refreshCompany(deps, clientId, { kind: principal.kind, id: principal.id });
      if (!outcome.ok) message = `${DEADLINES_MESSAGES.profileSaved}. ${outcome.error}`;
    }
  }
  return { record: await buildRecord(deps, entry), message };
}

export async function refreshClientCompany(deps: DeadlinesDeps, principal: Principal, clientId: string) {
  const entry = await visibleClient(deps.db, manageScopeOf(principal), clientId);
  const outcome = await refreshCompany(deps, clientId, { kind: principal.kind, id: principal.id });
  if (!outcome.ok && outcome.kind !== 'not_found') throw new AppError('UPSTREAM_UNAVAILABLE', outcome.error);
  return { record: await buildRecord(deps, entry), message: outcome.ok ? 'Companies House details refreshed' : outcome.error };
}
