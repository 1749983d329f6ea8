import { AppError, type Principal } from '@countinghouse/kit';
import { MTD_TEXTS, PROVIDER_LABELS, type MtdLedger, type MtdLedgerMappingsBody, type MtdLedgerQuery } from '@countinghouse/proto';
import { listLedgerMappings, saveLedgerMappings } from '../db/mtd-queries.js';
import { findCredentials, listIntegrationsOfClient, type IntegrationRow } from '../db/queries.js';
import { integrationDataOf } from '../domain/integration-data.js';
import { ledgerFigures, ledgerPeriod, suggestedCategory } from '../domain/mtd-rules.js';
import type { LedgerBasis, LedgerLine } from '../adapters/adapter.js';
import { ProviderError } from '../adapters/http.js';
import type { IntegrationsDeps } from './deps.js';
import { withAccessToken } from './grant.js';
import { requireMtdClient, type MtdDeps } from './mtd.js';

/** The quarterly update's figures from the client's own ledger (issue 31, item 6): MTD and the accounting grants. */
export interface MtdLedgerDeps {
  mtd: MtdDeps;
  integrations: IntegrationsDeps;
}

/** The client's connected ledger: the one active, not refused, most recently synced. */
function ledgerOf(rows: IntegrationRow[]): IntegrationRow | null {
  const live = rows.filter((r) => r.isActive);
  live.sort((a, b) => (b.lastSyncAt?.getTime() ?? 0) - (a.lastSyncAt?.getTime() ?? 0));
  return live[0] ?? null;
}

async function readLines(deps: IntegrationsDeps, row: IntegrationRow, period: { from: string; to: string; basis: LedgerBasis }) {
  const provider = row.integrationType;
  const label = PROVIDER_LABELS[provider];
  const adapter = deps.adapters[provider];
  try {
    if (row.needsReconnect) throw new ProviderError(provider, 'invalid_grant', 'stored grant (needs reconnecting)');
    const cred = await findCredentials(deps.db, row.id);
    if (!cred) throw new ProviderError(provider, 'invalid_grant', 'stored grant (missing)');
    return await withAccessToken(deps, row.id, provider, (access) => adapter.ledger(access, cred.externalId, period));
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    deps.logger.warn({ provider, step: err.message, status: err.status }, 'mtd: the ledger could not be read');
    if (err.failure === 'invalid_grant' || err.failure === 'unauthorized' || err.failure === 'refused')
      throw new AppError('CONFLICT', MTD_TEXTS.ledgerReconnect(label));
    throw new AppError('UPSTREAM_UNAVAILABLE', MTD_TEXTS.ledgerUnavailable(label));
  }
}

/**
 * The client's profit and loss from 6 April to the period's end, account by account, each with the
 * category the practice mapped (or the suggestion), and the figures those give. Nothing is sent or kept:
 * the figures go into the review form, where a person checks them before anything reaches HMRC.
 */
export async function readLedger(deps: MtdLedgerDeps, p: Principal, clientId: string, q: MtdLedgerQuery): Promise<MtdLedger> {
  const basis: LedgerBasis = q.basis ?? 'cash';
  await requireMtdClient(deps.mtd, p, clientId);
  const period = ledgerPeriod(q.taxYear, q.periodEndDate);
  if (!period) throw new AppError('VALIDATION_FAILED', MTD_TEXTS.ledgerPeriod);
  const row = ledgerOf(await listIntegrationsOfClient(deps.integrations.db, clientId));
  if (!row) throw new AppError('CONFLICT', MTD_TEXTS.noLedger);
  const [lines, mappings] = await Promise.all([
    readLines(deps.integrations, row, { ...period, basis }),
    listLedgerMappings(deps.mtd.db, clientId),
  ]);
  const provider = row.integrationType;
  const mapped = new Map(mappings.map((m) => [m.accountKey, m.category]));
  const accounts = lines.map((l: LedgerLine) => {
    const key = `${provider}:${l.id}`;
    const category = mapped.get(key);
    return {
      key,
      code: l.code,
      name: l.name,
      kind: l.kind,
      amount: l.amount,
      category: category ?? suggestedCategory(l.kind),
      mapped: !!category,
    };
  });
  return {
    provider,
    organisation: integrationDataOf(row.integrationData).company_name,
    fromDate: period.from,
    toDate: period.to,
    basis,
    accounts,
    figures: ledgerFigures(accounts),
    unmapped: accounts.filter((a) => !a.mapped).length,
  };
}

/** The practice's choices for a client's accounts; the latest wins. */
export async function changeLedgerMappings(deps: MtdDeps, p: Principal, clientId: string, body: MtdLedgerMappingsBody) {
  await requireMtdClient(deps, p, clientId);
  const byKey = new Map(body.mappings.map((m) => [m.key, m]));
  await saveLedgerMappings(
    deps.db,
    clientId,
    [...byKey.values()].map((m) => ({ accountKey: m.key, accountName: m.name, category: m.category })),
    p.id,
  );
  return { ok: true, message: MTD_TEXTS.mappingsSaved };
}
