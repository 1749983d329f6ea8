import { londonDayStart, reportRangeOf, requireRole, type App } from '@countinghouse/kit';
import {
  ClientsReportSchema,
  LEAD_STAGES,
  LeadsReportSchema,
  PACKAGES,
  REPORT_ROLES,
  ReportRangeQuerySchema,
  SUBSCRIPTION_STATUSES,
  pounds,
  ratio,
  type ClientsByPackage,
  type ClientsReport,
  type LeadsBySource,
  type LeadsReport,
  type SubscriptionStatus,
} from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { errors, type RouteDeps } from './shared.js';

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

/** Reports on crm's own data, for administrators only: clients by package and status, the lead funnel. */
export function reportRoutes(app: App, { db }: RouteDeps) {
  const guard = requireRole(REPORT_ROLES);

  app.get(
    '/reports/clients',
    {
      preHandler: guard,
      schema: {
        tags: ['crm', 'reports'],
        summary: 'Clients registered in the range, by package and by status (admin only)',
        querystring: ReportRangeQuerySchema,
        response: { 200: ClientsReportSchema, ...errors },
      },
    },
    async (request): Promise<ClientsReport> => {
      const { from, to } = reportRangeOf(request.query);
      // clients_registration_date_idx serves the range; the same condition as the list's registered_from/to.
      const res = await db.execute<{ package_name: string | null; status: SubscriptionStatus; n: string; fees: string }>(sql`
        select c.package_name, c.subscription_status as status, count(*) as n, coalesce(sum(c.monthly_fee), 0) as fees
        from crm.clients c
        where c.registration_date >= ${londonDayStart(from)} and c.registration_date < ${londonDayStart(to, 1)}
        group by 1, 2`);
      const packages = new Map<string | null, ClientsByPackage>(
        CATALOGUE.map((name) => [
          name,
          { package_name: name, clients: 0, active: 0, pending: 0, cancelled: 0, overdue: 0, monthly_fees: 0 },
        ]),
      );
      const statuses = new Map(SUBSCRIPTION_STATUSES.map((s) => [s, { status: s, clients: 0, monthly_fees: 0 }]));
      for (const r of res.rows) {
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
        monthly_fees: pounds(res.rows.reduce((n, r) => n + Number(r.fees), 0)),
        by_package: byPackage,
        by_status: byStatus,
      };
    },
  );

  app.get(
    '/reports/leads',
    {
      preHandler: guard,
      schema: {
        tags: ['crm', 'reports'],
        summary: 'Leads created in the range: the funnel by stage, and by source with conversion rates (admin only)',
        querystring: ReportRangeQuerySchema,
        response: { 200: LeadsReportSchema, ...errors },
      },
    },
    async (request): Promise<LeadsReport> => {
      const { from, to } = reportRangeOf(request.query);
      // leads_created_at_idx serves the range; the same condition as the list's created_from/to.
      const res = await db.execute<{ source: string | null; stage: string; n: string }>(sql`
        select l.source, l.stage, count(*) as n
        from crm.leads l
        where l.created_at >= ${londonDayStart(from)} and l.created_at < ${londonDayStart(to, 1)}
        group by 1, 2`);
      const stages = new Map(LEAD_STAGES.map((s) => [s as string, 0]));
      const sources = new Map<string | null, LeadsBySource>();
      for (const r of res.rows) {
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
    },
  );
}
