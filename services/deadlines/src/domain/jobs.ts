import { FILED_STAGE, jobKindLabel, type JobKind, type JobTemplateInput } from '@countinghouse/proto';
import { addDays, daysBetween, parseDate, type IsoDate } from './dates.js';

// Client jobs (issue 29): the default templates, the internal target date, capacity and profitability.
// Pure rules, table-tested in test/jobs-domain.test.ts.

const stage = (name: string, ...checklist: string[]) => ({ name, checklist });

const COMPLIANCE = (prepare: string[], file: string) => [
  stage('Records requested', 'Send the records request'),
  stage('Records received', 'Check the records are complete'),
  stage('In preparation', ...prepare),
  stage('Review', 'Reviewer signs off the working papers'),
  stage('Sent to client for approval', 'Send to the client with the summary'),
  stage('Approved', "Keep the client's approval"),
  stage(FILED_STAGE, file),
];

/**
 * The default template of each kind. Lead days: how long before the statutory date the job opens.
 * Internal target (target_days_before): the practice's own date ahead of the statutory one, so a
 * late client or a review finding leaves slack. Statutory dates (computed by domain/engine.ts):
 * - accounts: 9 months after the accounting reference date for a private company (Companies Act 2006
 *   s442(2)(a)); target 10 days before, the issue's example.
 * - CT600: 12 months after the end of the accounting period (FA 1998 Sch 18 para 14); target 14 days.
 * - VAT return: 1 month and 7 days after the period (VAT Regulations 1995 reg 25, Notice 700/12); target 7 days.
 * - Self Assessment online: 31 January after the tax year (TMA 1970 s8(1D)); target 14 days.
 * - Payroll (FPS): on or before each payday (Income Tax (PAYE) Regulations 2003 reg 67B); target 2 days.
 * - Confirmation statement: 14 days after the review period ends (Companies Act 2006 s853A); target 7 days.
 * - MTD quarterly update: the 7th of the month after the quarter (Income Tax (Digital Requirements)
 *   Regulations 2021); target 3 days.
 * Bookkeeping and ad hoc have no statutory date: due on the day set.
 */
export const DEFAULT_TEMPLATES: Record<JobKind, JobTemplateInput> = {
  year_end_accounts: {
    stages: COMPLIANCE(['Prepare the accounts', 'Reconcile the bank and the balance sheet'], 'File the accounts at Companies House'),
    budget_minutes: 8 * 60,
    reviewer_role: 'manager',
    lead_days: 120,
    target_days_before: 10,
  },
  corporation_tax_return: {
    stages: COMPLIANCE(['Prepare the CT600 and computations'], 'Submit the CT600 to HMRC'),
    budget_minutes: 4 * 60,
    reviewer_role: 'manager',
    lead_days: 120,
    target_days_before: 14,
  },
  vat_return: {
    stages: [
      stage('Records requested', 'Ask for the quarter’s records'),
      stage('In preparation', 'Reconcile the VAT control account'),
      stage('Review', 'Check the figures against last quarter'),
      stage('Approved', "Keep the client's approval"),
      stage(FILED_STAGE, 'Submit the return through MTD'),
    ],
    budget_minutes: 2 * 60,
    reviewer_role: 'staff',
    lead_days: 45,
    target_days_before: 7,
  },
  self_assessment: {
    stages: COMPLIANCE(['Prepare the return'], 'Submit the return to HMRC'),
    budget_minutes: 3 * 60,
    reviewer_role: 'manager',
    lead_days: 90,
    target_days_before: 14,
  },
  payroll_run: {
    stages: [
      stage('Hours received', 'Collect hours, starters and leavers'),
      stage('In preparation', 'Run the payroll'),
      stage('Review', 'Check the payslips'),
      stage(FILED_STAGE, 'Send the FPS to HMRC'),
    ],
    budget_minutes: 60,
    reviewer_role: 'staff',
    lead_days: 10,
    target_days_before: 2,
  },
  confirmation_statement: {
    stages: [
      stage('In preparation', 'Check officers, PSCs and shareholders'),
      stage('Review', 'Reviewer checks the statement'),
      stage('Approved', "Keep the client's approval"),
      stage(FILED_STAGE, 'File the statement at Companies House'),
    ],
    budget_minutes: 30,
    reviewer_role: 'staff',
    lead_days: 30,
    target_days_before: 7,
  },
  mtd_quarterly_update: {
    stages: [
      stage('Records requested', 'Ask for the quarter’s income and expenses'),
      stage('In preparation', 'Categorise the transactions'),
      stage('Review', 'Check the update'),
      stage(FILED_STAGE, 'Send the update to HMRC'),
    ],
    budget_minutes: 90,
    reviewer_role: 'staff',
    lead_days: 30,
    target_days_before: 3,
  },
  bookkeeping: {
    stages: [
      stage('To do', 'Import the bank feed'),
      stage('In preparation', 'Reconcile the bank'),
      stage('Review', 'Check the reconciliation'),
      stage(FILED_STAGE, 'Send the month’s figures'),
    ],
    budget_minutes: 2 * 60,
    reviewer_role: 'staff',
    lead_days: 7,
    target_days_before: 0,
  },
  ad_hoc: {
    stages: [stage('To do'), stage('In progress'), stage('Review'), stage(FILED_STAGE)],
    budget_minutes: 60,
    reviewer_role: 'manager',
    lead_days: 14,
    target_days_before: 0,
  },
};

export const templateName = (kind: JobKind) => jobKindLabel(kind);

/** The internal target: target_days_before the statutory date, never before the day the job opens. */
export function internalTarget(statutoryDue: IsoDate, targetDaysBefore: number, openedOn: IsoDate): IsoDate {
  const target = addDays(statutoryDue, -targetDaysBefore);
  if (target >= openedOn) return target;
  return statutoryDue < openedOn ? statutoryDue : openedOn;
}

/** A monthly schedule's next occurrence on or after `today`: its day this month, or next month's. */
export function nextOccurrence(today: IsoDate, dayOfMonth: number): IsoDate {
  const { y, m, d } = parseDate(today);
  if (d <= dayOfMonth) return `${today.slice(0, 8)}${String(dayOfMonth).padStart(2, '0')}`;
  const ny = m === 12 ? y + 1 : y;
  const nm = m === 12 ? 1 : m + 1;
  return `${ny}-${String(nm).padStart(2, '0')}-${String(dayOfMonth).padStart(2, '0')}`;
}

/** A template's stages must end with Filed (filing closes the job and its deadline). */
export function validStages(stages: ReadonlyArray<{ name: string }>): boolean {
  const names = stages.map((s) => s.name.trim());
  return names[names.length - 1] === FILED_STAGE && new Set(names).size === names.length && names.every((n) => n.length > 0);
}

// ---------------------------------------------------------------------------------------------------
// Capacity

/** The Monday of the week of a day. */
export function weekStart(day: IsoDate): IsoDate {
  const { y, m, d } = parseDate(day);
  const dow = new Date(Date.UTC(y, m - 1, d)).getUTCDay(); // 0 Sunday
  return addDays(day, -((dow + 6) % 7));
}

const isWeekday = (day: IsoDate) => {
  const { y, m, d } = parseDate(day);
  const dow = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return dow >= 1 && dow <= 5;
};

export interface CapacityInput {
  /** Any day of the first week. */
  from: IsoDate;
  weeks: number;
  /** Contracted hours a week, in minutes, over five working days. */
  weeklyCapacityMinutes: number;
  /** Days of leave (weekends are ignored). */
  leave: readonly IsoDate[];
  /** Open jobs assigned to the person: their budget counts in the week they are due. */
  jobs: ReadonlyArray<{ dueOn: IsoDate; budgetMinutes: number }>;
}

export interface CapacityWeekOut {
  week_start: IsoDate;
  budgeted_minutes: number;
  available_minutes: number;
  leave_days: number;
  jobs: number;
  over_allocated: boolean;
}

/** Hours budgeted on jobs due in each week against capacity less leave (a day of leave is a fifth of the week). */
export function capacityWeeks(input: CapacityInput): CapacityWeekOut[] {
  const first = weekStart(input.from);
  const out: CapacityWeekOut[] = [];
  for (let i = 0; i < input.weeks; i++) {
    const start = addDays(first, 7 * i);
    const end = addDays(start, 6);
    const leaveDays = new Set(input.leave.filter((d) => d >= start && d <= end && isWeekday(d))).size;
    const due = input.jobs.filter((j) => j.dueOn >= start && j.dueOn <= end);
    const budgeted = due.reduce((s, j) => s + j.budgetMinutes, 0);
    const available = Math.round((input.weeklyCapacityMinutes * (5 - leaveDays)) / 5);
    out.push({
      week_start: start,
      budgeted_minutes: budgeted,
      available_minutes: available,
      leave_days: leaveDays,
      jobs: due.length,
      over_allocated: budgeted > available,
    });
  }
  return out;
}

/** The team's weeks: each week's sums over people. */
export function teamWeeks(people: ReadonlyArray<readonly CapacityWeekOut[]>, starts: readonly IsoDate[]): CapacityWeekOut[] {
  return starts.map((week_start, i) => {
    const rows = people.map((p) => p[i]!);
    const budgeted = rows.reduce((s, r) => s + r.budgeted_minutes, 0);
    const available = rows.reduce((s, r) => s + r.available_minutes, 0);
    return {
      week_start,
      budgeted_minutes: budgeted,
      available_minutes: available,
      leave_days: rows.reduce((s, r) => s + r.leave_days, 0),
      jobs: rows.reduce((s, r) => s + r.jobs, 0),
      over_allocated: budgeted > available,
    };
  });
}

// ---------------------------------------------------------------------------------------------------
// Profitability

export interface ProfitInput {
  /** The month's fee, pence. */
  feePence: number;
  /** Time recorded in the month, with each person's cost rate per hour in pence. */
  time: ReadonlyArray<{ minutes: number; ratePence: number }>;
}

export interface ProfitOut {
  minutes: number;
  cost_pence: number;
  margin_pence: number;
  effective_rate_pence: number | null;
}

/** Cost = time x cost rate; margin = fee - cost; effective hourly rate = fee / hours worked. */
export function profitability({ feePence, time }: ProfitInput): ProfitOut {
  const minutes = time.reduce((s, t) => s + t.minutes, 0);
  const cost = Math.round(time.reduce((s, t) => s + (t.minutes * t.ratePence) / 60, 0));
  return {
    minutes,
    cost_pence: cost,
    margin_pence: feePence - cost,
    effective_rate_pence: minutes > 0 ? Math.round((feePence * 60) / minutes) : null,
  };
}

/** The days of a month, YYYY-MM → [first, last]. */
export function monthRange(month: string): [IsoDate, IsoDate] {
  const first = `${month}-01`;
  const { y, m } = parseDate(first);
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return [first, addDays(next, -1)];
}

/** Days a job has been in its stage (for the board's card). */
export const daysIn = (since: IsoDate, today: IsoDate) => Math.max(0, daysBetween(since, today));

/** CSV of the profitability report (pounds with two decimals). */
export function profitabilityCsv(
  rows: ReadonlyArray<{
    client_name: string;
    package_name: string | null;
    fee_pence: number;
    minutes: number;
    cost_pence: number;
    margin_pence: number;
    effective_rate_pence: number | null;
  }>,
): string {
  const q = (s: string) =>
    /[",\n\r]/.test(s) || /^[=+\-@\t]/.test(s) ? `"${(/^[=+\-@\t]/.test(s) ? `'${s}` : s).replace(/"/g, '""')}"` : s;
  const pounds = (p: number) => (p / 100).toFixed(2);
  const lines = ['Client,Package,Fee (GBP),Hours,Cost (GBP),Margin (GBP),Effective rate (GBP/h)'];
  for (const r of rows)
    lines.push(
      [
        q(r.client_name),
        q(r.package_name ?? ''),
        pounds(r.fee_pence),
        (r.minutes / 60).toFixed(2),
        pounds(r.cost_pence),
        pounds(r.margin_pence),
        r.effective_rate_pence === null ? '' : pounds(r.effective_rate_pence),
      ].join(','),
    );
  return lines.join('\r\n') + '\r\n';
}
