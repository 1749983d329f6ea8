import { reportRangeProblem, type ReportRangeQuery } from '@countinghouse/proto';
import { sql, type SQL } from 'drizzle-orm';
import { AppError } from './errors.js';

/** The range of a report request, or the 400 that says what is wrong with it (proto's range rules). */
export function reportRangeOf(q: ReportRangeQuery): ReportRangeQuery {
  const problem = reportRangeProblem(q.from, q.to);
  if (problem) throw new AppError('VALIDATION_FAILED', problem.message, [problem]);
  return { from: q.from, to: q.to };
}

/**
 * The instant a London day starts (`plusDays` later), as SQL: report ranges and date filters are London
 * days (proto's REPORT_TIME_ZONE, written as a literal so the planner sees a constant).
 */
export function londonDayStart(day: string, plusDays = 0): SQL {
  return sql`((${day}::date + ${plusDays}::int)::timestamp at time zone 'Europe/London')`;
}
