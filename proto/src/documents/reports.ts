import { Type, type Static } from '@sinclair/typebox';
import { ReportRangeEcho } from '../reports.js';

// documents' reports (admin only), under /api/documents/reports. Each takes ReportRangeQuerySchema.

export const DOCUMENTS_REPORT_ROUTES = {
  uploads: '/api/documents/reports/uploads',
} as const;

/** Documents uploaded in one ISO week (Monday to Sunday, Europe/London), by document type. */
export const UploadsWeekSchema = Type.Object({
  /** 'YYYY-Www' */
  week: Type.String(),
  /** The Monday, YYYY-MM-DD (the first week may start before the range; only days in the range count). */
  week_start: Type.String({ format: 'date' }),
  total: Type.Integer({ minimum: 0 }),
  /** Every document type, zeros included. */
  by_type: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
});
export type UploadsWeek = Static<typeof UploadsWeekSchema>;

/** The documents list with created_from/created_to counts `total`; each type its total with that type filter. */
export const UploadsReportSchema = Type.Object({
  ...ReportRangeEcho,
  total: Type.Integer({ minimum: 0 }),
  /** Totals per document type over the range, every type (zeros included). */
  by_type: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
  /** Every ISO week the range touches, oldest first. */
  weeks: Type.Array(UploadsWeekSchema),
});
export type UploadsReport = Static<typeof UploadsReportSchema>;
