import { AppError, type Principal } from '@countinghouse/kit';
import {
  AML_MESSAGES,
  AML_OUTSTANDING_STATUSES,
  AML_STATUS_VALUES,
  type AmlList,
  type AmlListQuery,
  type AmlReport,
  type AmlStatuses,
} from '@countinghouse/proto';
import { listFiles, statusesOf } from '../db/queries.js';
import { viewScopeOf } from '../domain/access.js';
import type { AmlDeps } from './deps.js';

function scopeOrRefuse(p: Principal) {
  const scope = viewScopeOf(p);
  if (!scope) throw new AppError('FORBIDDEN', AML_MESSAGES.readOnly);
  return scope;
}

/** Every current client's due diligence the caller may see, filtered, with counts by status and risk. */
export async function findFiles(deps: AmlDeps, p: Principal, q: AmlListQuery): Promise<AmlList> {
  const r = await listFiles(deps.db, scopeOrRefuse(p), q, deps.today());
  return { items: r.items, total: r.total, page: q.page, page_size: q.page_size, counts: r.counts };
}

/** The status of the clients a list shows (for its "Due diligence outstanding" badges); unknown ids are left out. */
export async function findStatuses(deps: AmlDeps, p: Principal, clientIds: string[]): Promise<AmlStatuses> {
  const ids = [...new Set(clientIds.filter(Boolean))].slice(0, 200);
  const rows = await statusesOf(deps.db, scopeOrRefuse(p), ids, deps.today());
  return {
    statuses: rows.map((r) => ({ client_id: r.client_id, status: r.status, outstanding: AML_OUTSTANDING_STATUSES.includes(r.status) })),
  };
}

/** The reports' AML panel: current clients by status and (approved) risk. */
export async function amlReport(deps: AmlDeps, p: Principal): Promise<AmlReport> {
  const r = await listFiles(deps.db, scopeOrRefuse(p), { page: 1, page_size: 1 }, deps.today());
  return {
    rows: AML_STATUS_VALUES.map((status) => {
      const of = (risk: string | null) => r.report.filter((x) => x.status === status && x.risk === risk).reduce((n, x) => n + x.n, 0);
      return { status, low: of('low'), medium: of('medium'), high: of('high'), none: of(null) };
    }),
  };
}
