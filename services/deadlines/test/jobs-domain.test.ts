import { JOB_KIND_VALUES, FILED_STAGE } from '@countinghouse/proto';
import { describe, expect, it } from 'vitest';
import {
  capacityWeeks,
  DEFAULT_TEMPLATES,
  internalTarget,
  monthRange,
  nextOccurrence,
  profitability,
  profitabilityCsv,
  teamWeeks,
  validStages,
  weekStart,
} from '../src/domain/jobs.js';

describe('default templates', () => {
  it.each(JOB_KIND_VALUES)('%s ends with Filed, has a budget and unique stages', (kind) => {
    const t = DEFAULT_TEMPLATES[kind];
    expect(validStages(t.stages)).toBe(true);
    expect(t.stages[t.stages.length - 1]!.name).toBe(FILED_STAGE);
    expect(t.budget_minutes).toBeGreaterThan(0);
  });

  it('year-end accounts: the issue’s stages in order', () => {
    expect(DEFAULT_TEMPLATES.year_end_accounts.stages.map((s) => s.name)).toEqual([
      'Records requested',
      'Records received',
      'In preparation',
      'Review',
      'Sent to client for approval',
      'Approved',
      'Filed',
    ]);
  });

  it.each([
    [[{ name: 'To do' }, { name: 'Filed' }], true],
    [[{ name: 'To do' }, { name: 'Done' }], false],
    [[{ name: 'Filed' }, { name: 'Filed' }], false],
    [[{ name: ' ' }, { name: 'Filed' }], false],
  ])('validStages(%j) = %s', (stages, ok) => expect(validStages(stages)).toBe(ok));
});

describe('internal target date', () => {
  it.each([
    // Accounts due 31 Dec 2026 (9 months after a 31 Mar ARD, CA 2006 s442), target 10 days before.
    ['2026-12-31', 10, '2026-11-23', '2026-12-21'],
    // VAT quarter to 30 Sep 2026: due 7 Nov 2026, target 7 days before.
    ['2026-11-07', 7, '2026-10-01', '2026-10-31'],
    // Opened inside the target window: due on the day it opens.
    ['2026-12-31', 10, '2026-12-25', '2026-12-25'],
    // No slack at all: target 0 is the statutory date.
    ['2027-01-31', 0, '2026-11-01', '2027-01-31'],
  ])('statutory %s, %i days before, opened %s → %s', (due, before, opened, want) => {
    expect(internalTarget(due, before, opened)).toBe(want);
  });
});

describe('recurring schedules', () => {
  it.each([
    ['2026-11-23', 28, '2026-11-28'],
    ['2026-11-28', 28, '2026-11-28'],
    ['2026-11-29', 28, '2026-12-28'],
    ['2026-12-15', 1, '2027-01-01'],
  ])('on %s, monthly on day %i → next %s', (today, day, want) => expect(nextOccurrence(today, day)).toBe(want));
});

describe('capacity', () => {
  it.each([
    ['2026-11-26', '2026-11-23'],
    ['2026-11-23', '2026-11-23'],
    ['2026-11-29', '2026-11-23'],
    ['2027-01-01', '2026-12-28'],
  ])('week of %s starts %s', (day, monday) => expect(weekStart(day)).toBe(monday));

  it('four 6-hour jobs in one week, 20 h capacity, one day of leave: 24 h budgeted, 16 h available, over-allocated', () => {
    const weeks = capacityWeeks({
      from: '2027-01-04',
      weeks: 12,
      weeklyCapacityMinutes: 20 * 60,
      leave: ['2027-01-06'],
      jobs: ['2027-01-04', '2027-01-05', '2027-01-07', '2027-01-08'].map((dueOn) => ({ dueOn, budgetMinutes: 360 })),
    });
    expect(weeks).toHaveLength(12);
    expect(weeks[0]).toEqual({
      week_start: '2027-01-04',
      budgeted_minutes: 24 * 60,
      available_minutes: 16 * 60,
      leave_days: 1,
      jobs: 4,
      over_allocated: true,
    });
    expect(weeks[1]).toMatchObject({ week_start: '2027-01-11', budgeted_minutes: 0, available_minutes: 20 * 60, over_allocated: false });
  });

  it.each([
    // [budget h, capacity h, leave days (weekdays), weekend leave, over?]
    [16, 20, 1, 0, false],
    [17, 20, 1, 0, true],
    [20, 20, 0, 2, false],
    [1, 20, 5, 0, true],
  ])('%i h budgeted against %i h with %i day(s) of leave (and %i weekend days): over %s', (budget, cap, weekdays, weekend, over) => {
    const leave = ['2027-01-04', '2027-01-05', '2027-01-06', '2027-01-07', '2027-01-08'].slice(0, weekdays);
    leave.push(...['2027-01-09', '2027-01-10'].slice(0, weekend));
    const [w] = capacityWeeks({
      from: '2027-01-04',
      weeks: 1,
      weeklyCapacityMinutes: cap * 60,
      leave,
      jobs: [{ dueOn: '2027-01-08', budgetMinutes: budget * 60 }],
    });
    expect(w!.leave_days).toBe(weekdays);
    expect(w!.over_allocated).toBe(over);
  });

  it('the team sums each week', () => {
    const a = capacityWeeks({
      from: '2027-01-04',
      weeks: 2,
      weeklyCapacityMinutes: 600,
      leave: [],
      jobs: [{ dueOn: '2027-01-04', budgetMinutes: 900 }],
    });
    const b = capacityWeeks({ from: '2027-01-04', weeks: 2, weeklyCapacityMinutes: 600, leave: [], jobs: [] });
    const team = teamWeeks([a, b], ['2027-01-04', '2027-01-11']);
    expect(team[0]).toMatchObject({ budgeted_minutes: 900, available_minutes: 1200, over_allocated: false, jobs: 1 });
  });
});

describe('profitability', () => {
  it.each([
    // The example: £150 a month, 4.5 h at £40 → cost £180, margin -£30, £33.33 an hour.
    [15000, [{ minutes: 270, ratePence: 4000 }], { minutes: 270, cost_pence: 18000, margin_pence: -3000, effective_rate_pence: 3333 }],
    // Two people at different rates: 1 h at £40 and 30 min at £60 → £70; fee £100 → margin £30; £66.67/h.
    [
      10000,
      [
        { minutes: 60, ratePence: 4000 },
        { minutes: 30, ratePence: 6000 },
      ],
      { minutes: 90, cost_pence: 7000, margin_pence: 3000, effective_rate_pence: 6667 },
    ],
    // No time: the whole fee is margin, no effective rate.
    [5000, [], { minutes: 0, cost_pence: 0, margin_pence: 5000, effective_rate_pence: null }],
  ])('fee %i pence with %j', (feePence, time, want) => {
    expect(profitability({ feePence, time })).toEqual(want);
  });

  it.each([
    ['2026-02', ['2026-02-01', '2026-02-28']],
    ['2024-02', ['2024-02-01', '2024-02-29']],
    ['2026-12', ['2026-12-01', '2026-12-31']],
  ])('month %s is %j', (m, range) => expect(monthRange(m)).toEqual(range));

  it('CSV: pounds, hours, a negative margin, and a formula-looking name made inert', () => {
    const csv = profitabilityCsv([
      {
        client_name: 'Acme, Ltd',
        package_name: 'Growth',
        fee_pence: 15000,
        minutes: 270,
        cost_pence: 18000,
        margin_pence: -3000,
        effective_rate_pence: 3333,
      },
      {
        client_name: '=HYPERLINK()',
        package_name: null,
        fee_pence: 0,
        minutes: 0,
        cost_pence: 0,
        margin_pence: 0,
        effective_rate_pence: null,
      },
    ]);
    expect(csv.split('\r\n')).toEqual([
      'Client,Package,Fee (GBP),Hours,Cost (GBP),Margin (GBP),Effective rate (GBP/h)',
      '"Acme, Ltd",Growth,150.00,4.50,180.00,-30.00,33.33',
      `"'=HYPERLINK()",,0.00,0.00,0.00,0.00,`,
      '',
    ]);
  });
});
