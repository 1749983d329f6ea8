import { reportRangeOf } from '@countinghouse/kit';
import {
  LEAD_STAGES,
  PACKAGES,
  SUBSCRIPTION_STATUSES,
  pounds,
  ratio,
  type ClientsByPackage,
  type ClientsReport,
  type LeadsBySource,
  type LeadsReport,
  type ReportRangeQuery,
} from '@countinghouse/proto';
import { clientsByPackageAndStatus, leadsBySourceAndStage } from '../db/reports.js';
import type { CrmDeps } from './deps.js';

const CATALOGUE: readonly string[] = PACKAGES.map((p) => p.name);

/** Catalogue packages in catalogue order, then other names alphabetically, then no package. */
function packageOrder(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const ia = CATALOGUE.indexOf(a);
  const ib = CATALOGUE.indexOf(b);
  if (ia >= 0 || ib >= 0) return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib);
  return a.localeCompare(b, 'en-GB');
}

/** Clients registered in the range, by package and by status. */
export async function reportClients(deps: CrmDeps, range: ReportRangeQuery): Promise<ClientsReport> {
  const { from, to } = reportRangeOf(range);
  const rows = await clientsByPackageAndStatus(deps.db, from, to);
  const packages = new Map<string | null, ClientsByPackage>(
    CATALOGUE.map((name) => [name, { package_name: name, clients: 0, active: 0, pending: 0, cancelled: 0, overdue: 0, monthly_fees: 0 }]),
  );
  const statuses = new Map(SUBSCRIPTION_STATUSES.map((s) => [s, { status: s, clients: 0, monthly_fees: 0 }]));
  for (const r of rows) {
    const n = Number(r.n);
    const fees = Number(r.fees);
    let p = packages.get(r.package_name);
    if (!p) {
      p = { package_name: r.package_name, clients: 0, active: 0, pending: 0, cancelled: 0, overdue: 0, monthly_fees: 0 };
      packages.set(r.package_name, p);
    }
    p.clients += n;
    p[r.status] += n;
    p.monthly_fees += fees;
    const s = statuses.get(r.status)!;
    s.clients += n;
    s.monthly_fees += fees;
  }
  const byPackage = [...packages.values()]
    .sort((a, b) => packageOrder(a.package_name, b.package_name))
    .map((p) => ({ ...p, monthly_fees: pounds(p.monthly_fees) }));
  const byStatus = [...statuses.values()].map((s) => ({ ...s, monthly_fees: pounds(s.monthly_fees) }));
  return {
    from,
    to,
    total: byStatus.reduce((n, s) => n + s.clients, 0),
    monthly_fees: pounds(rows.reduce((n, r) => n + Number(r.fees), 0)),
    by_package: byPackage,
    by_status: byStatus,
  };
}

/** Leads created in the range: the funnel by stage, and by source with conversion rates. */
export async function reportLeads(deps: CrmDeps, range: ReportRangeQuery): Promise<LeadsReport> {
  const { from, to } = reportRangeOf(range);
  const rows = await leadsBySourceAndStage(deps.db, from, to);
  const stages = new Map<string, number>(LEAD_STAGES.map((s) => [s, 0]));
  const sources = new Map<string | null, LeadsBySource>();
  for (const r of rows) {
    const n = Number(r.n);
    stages.set(r.stage, (stages.get(r.stage) ?? 0) + n);
    let s = sources.get(r.source);
    if (!s) {
      s = { source: r.source, leads: 0, won: 0, lost: 0, open: 0, conversion_rate: 0 };
      sources.set(r.source, s);
    }
    s.leads += n;
    if (r.stage === 'won') s.won += n;
    else if (r.stage === 'lost') s.lost += n;
    else s.open += n;
  }
  const bySource = [...sources.values()]
    .map((s) => ({ ...s, conversion_rate: ratio(s.won, s.leads) }))
    .sort((a, b) => (a.source === null ? 1 : b.source === null ? -1 : b.leads - a.leads || a.source.localeCompare(b.source, 'en-GB')));
  const total = [...stages.values()].reduce((n, v) => n + v, 0);
  const won = stages.get('won') ?? 0;
  return {
    from,
    to,
    total,
    won,
    lost: stages.get('lost') ?? 0,
    conversion_rate: ratio(won, total),
    by_stage: LEAD_STAGES.map((stage) => ({ stage, leads: stages.get(stage) ?? 0 })),
    by_source: bySource,
  };
}
