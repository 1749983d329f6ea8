// HMRC's Making Tax Digital for Income Tax obligations (issue 31) in the deadline engine. HMRC's
// Obligations API is the authority on a signed-up taxpayer's periods and due dates (a taxpayer may
// have elected calendar quarters, or HMRC may move a date); the engine's own rule (quarters to 5 Jul,
// 5 Oct, 5 Jan, 5 Apr, due the 7th of the second month after) stands only for the tax years HMRC has
// not answered for. Pure functions, table-tested in test/mtd-obligations.test.ts.
import { parseDate, type IsoDate } from './dates.js';

/** One obligation as HMRC gave it (integrations.mtd_obligations_updated; dates YYYY-MM-DD). */
export interface MtdObligationFact {
  kind: 'quarterly' | 'final_declaration';
  businessId: string | null;
  periodStartDate: string;
  periodEndDate: string;
  dueDate: string;
  status: string;
  receivedDate: string | null;
}

/** One deadline's worth of HMRC's answer: when it is due and, once HMRC has it, the day it came in. */
export interface MtdPeriod {
  periodEnd: IsoDate;
  dueOn: IsoDate;
  /** Null while HMRC still waits for it. */
  fulfilledOn: IsoDate | null;
}

export interface MtdYear {
  quarters: MtdPeriod[];
  finalDeclaration: MtdPeriod | null;
}

const ISO = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The tax year (the calendar year it starts in, 6 April) a period ending on `end` belongs to. A tax
 * year runs 6 April to 5 April (ITA 2007 s.4); a calendar-quarter election ends the last quarter on
 * 31 March, which belongs to the same tax year as the one ending 5 April.
 */
export function taxYearOfPeriodEnd(end: IsoDate): number {
  const { y, m, d } = parseDate(end);
  return m < 4 || (m === 4 && d <= 5) ? y - 1 : y;
}

/**
 * HMRC's obligations by tax year. Quarterly obligations are per business (a sole trade and a property
 * business each have their own); the client has one deadline per quarter: the earliest due date of the
 * businesses', done only when every business's update is in (on the latest day HMRC received one).
 * Obligations with malformed dates are left out (the integrations service checked them already).
 */
export function mtdYears(obligations: readonly MtdObligationFact[]): Map<number, MtdYear> {
  const years = new Map<number, MtdYear>();
  const yearOf = (n: number) => {
    let y = years.get(n);
    if (!y) years.set(n, (y = { quarters: [], finalDeclaration: null }));
    return y;
  };
  const quarters = new Map<IsoDate, { dueOn: IsoDate; open: boolean; lastReceived: IsoDate | null }>();
  for (const o of obligations) {
    if (!ISO.test(o.periodEndDate) || !ISO.test(o.dueDate)) continue;
    const fulfilled = o.status === 'fulfilled';
    const received = fulfilled && o.receivedDate && ISO.test(o.receivedDate) ? o.receivedDate : null;
    if (o.kind === 'final_declaration') {
      yearOf(taxYearOfPeriodEnd(o.periodEndDate)).finalDeclaration = {
        periodEnd: o.periodEndDate,
        dueOn: o.dueDate,
        fulfilledOn: fulfilled ? (received ?? o.dueDate) : null,
      };
      continue;
    }
    const q = quarters.get(o.periodEndDate);
    if (!q) {
      quarters.set(o.periodEndDate, { dueOn: o.dueDate, open: !fulfilled, lastReceived: received ?? (fulfilled ? o.dueDate : null) });
    } else {
      if (o.dueDate < q.dueOn) q.dueOn = o.dueDate;
      q.open = q.open || !fulfilled;
      const r = received ?? (fulfilled ? o.dueDate : null);
      if (r && (!q.lastReceived || r > q.lastReceived)) q.lastReceived = r;
    }
  }
  for (const [periodEnd, q] of [...quarters].sort((a, b) => a[0].localeCompare(b[0])))
    yearOf(taxYearOfPeriodEnd(periodEnd)).quarters.push({ periodEnd, dueOn: q.dueOn, fulfilledOn: q.open ? null : q.lastReceived });
  return years;
}
