import { reportRangeOf, type Principal } from '@countinghouse/kit';
import { DOCUMENT_TYPE_VALUES, weeksOf, type ReportRangeQuery, type UploadsReport } from '@countinghouse/proto';
import { uploadsPerWeek } from '../db/queries.js';
import type { DocumentsDeps } from './deps.js';

function zeros(): Record<string, number> {
  return Object.fromEntries(DOCUMENT_TYPE_VALUES.map((t) => [t, 0]));
}

/** Documents uploaded per ISO week (Europe/London) by type, over the range (the route admits administrators only). */
export async function getUploadsReport(
  deps: Pick<DocumentsDeps, 'db'>,
  _principal: Principal,
  query: ReportRangeQuery,
): Promise<UploadsReport> {
  const { from, to } = reportRangeOf(query);
  const rows = await uploadsPerWeek(deps.db, from, to);
  const weeks = weeksOf(from, to).map((w) => ({ ...w, total: 0, by_type: zeros() }));
  const index = new Map(weeks.map((w) => [w.week_start, w]));
  const byType = zeros();
  for (const r of rows) {
    const w = index.get(r.week_start);
    const n = Number(r.n);
    if (!w) continue; // cannot happen: every in-range day's Monday is listed
    w.by_type[r.document_type] = (w.by_type[r.document_type] ?? 0) + n;
    w.total += n;
    byType[r.document_type] = (byType[r.document_type] ?? 0) + n;
  }
  return { from, to, total: weeks.reduce((n, w) => n + w.total, 0), by_type: byType, weeks };
}
