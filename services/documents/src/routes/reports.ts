import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import { REPORT_ROLES, ReportRangeQuerySchema, UploadsReportSchema } from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import type { DocumentsDeps } from '../use-cases/deps.js';
import { getUploadsReport } from '../use-cases/reports.js';

const ErrorRef = Type.Ref('ErrorBody');

/** Reports on documents' own data, for administrators only: uploads per ISO week by type. */
export function reportRoutes(app: App, deps: Pick<DocumentsDeps, 'db'>) {
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
    async (request) => getUploadsReport(deps, requireAuth(request), request.query),
  );
}
