import { londonDayStart, reportRangeOf, requireRole, type App, type Db } from '@countinghouse/kit';
import {
  DOCUMENT_TYPE_VALUES,
  REPORT_ROLES,
  REPORT_TIME_ZONE,
  ReportRangeQuerySchema,
  UploadsReportSchema,
  weeksOf,
  type UploadsReport,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';

const ErrorRef = Type.Ref('ErrorBody');

const zeros = () => Object.fromEntries(DOCUMENT_TYPE_VALUES.map((t) => [t, 0])) as Record<string, number>;

/** Reports on documents' own data, for administrators only: uploads per ISO week by type. */
export function reportRoutes(app: App, { db }: { db: Db }) {
  app.get(
    '/reports/uploads',
    {
      preHandler: requireRole(REPORT_ROLES),
      schema: {
        tags: ['documents', 'reports'],
        summary: 'Documents uploaded per ISO week (Europe/London) by type, over the range (admin only)',
        querystring: ReportRangeQuerySchema,
        response: { 200: UploadsReportSchema, 400: ErrorRef, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (request): Promise<UploadsReport> => {
      const { from, to } = reportRangeOf(request.query);
      // The same condition as the list's created_from/created_to; client_documents_created_idx serves
      // the range (docs/perf/reports-plans.md).
      const res = await db.execute<{ week_start: string; document_type: string; n: string }>(sql`
        select to_char(w.week, 'YYYY-MM-DD') as week_start, w.document_type, w.n
        from (select date_trunc('week', d.created_at at time zone ${REPORT_TIME_ZONE}) as week, d.document_type, count(*) as n
              from documents.client_documents d
              where d.created_at >= ${londonDayStart(from)} and d.created_at < ${londonDayStart(to, 1)}
              group by 1, 2) w`);
      const weeks = weeksOf(from, to).map((w) => ({ ...w, total: 0, by_type: zeros() }));
      const index = new Map(weeks.map((w) => [w.week_start, w]));
      const byType = zeros();
      for (const r of res.rows) {
        const w = index.get(r.week_start);
        const n = Number(r.n);
        if (!w) continue; // cannot happen: every in-range day's Monday is listed
        w.by_type[r.document_type] = (w.by_type[r.document_type] ?? 0) + n;
        w.total += n;
        byType[r.document_type] = (byType[r.document_type] ?? 0) + n;
      }
      return { from, to, total: weeks.reduce((n, w) => n + w.total, 0), by_type: byType, weeks };
    },
  );
}
