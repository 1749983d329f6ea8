import { DEFAULT_REMINDER_SCHEDULE, addDays } from '@countinghouse/proto';
import { describe, expect, it } from 'vitest';
import { reminderDue, scheduledDays } from '../src/domain/schedule.js';

const S = DEFAULT_REMINDER_SCHEDULE; // sent, 14, 7, 3, 1 days before due, then every 3 days overdue

describe('scheduledDays: when sent, 14, 7, 3 and 1 days before due, then every 3 days overdue', () => {
  it.each([
    // sent 1 Dec, due 31 Dec: every "before" day falls after sending
    [
      '2026-12-01',
      '2026-12-31',
      '2027-01-09',
      ['2026-12-01', '2026-12-17', '2026-12-24', '2026-12-28', '2026-12-30', '2027-01-03', '2027-01-06', '2027-01-09'],
    ],
    // due in 10 days (the acceptance's request): 14 days before is before sending, so it is skipped
    ['2026-11-26', '2026-12-06', '2026-12-06', ['2026-11-26', '2026-11-29', '2026-12-03', '2026-12-05']],
    // sent the day before due: sent, and nothing else until overdue
    ['2026-03-30', '2026-03-31', '2026-04-03', ['2026-03-30', '2026-04-03']],
    // the due date itself is never a reminder day
    ['2026-01-01', '2026-01-31', '2026-01-31', ['2026-01-01', '2026-01-17', '2026-01-24', '2026-01-28', '2026-01-30']],
    // across the clock change (29 Mar 2026, BST): calendar days, not 24-hour steps
    ['2026-03-20', '2026-04-01', '2026-04-07', ['2026-03-20', '2026-03-25', '2026-03-29', '2026-03-31', '2026-04-04', '2026-04-07']],
    // a leap year: 29 Feb 2028 counts
    ['2028-02-01', '2028-03-01', '2028-03-01', ['2028-02-01', '2028-02-16', '2028-02-23', '2028-02-27', '2028-02-29']],
  ])('sent %s, due %s, up to %s', (sentOn, dueOn, until, expected) => {
    expect(scheduledDays(sentOn, dueOn, S, until)).toEqual(expected);
  });

  it('follows a template’s own schedule (30 and 10 days before, weekly overdue)', () => {
    expect(scheduledDays('2026-05-01', '2026-06-30', { before_days: [30, 10], overdue_every_days: 7 }, '2026-07-14')).toEqual([
      '2026-05-01',
      '2026-05-31',
      '2026-06-20',
      '2026-07-07',
      '2026-07-14',
    ]);
  });
});

describe('reminderDue: one a day at most, a missed run sends one, a hand-sent one covers the day', () => {
  const base = { sentOn: '2026-12-01', dueOn: '2026-12-31', schedule: S };
  it.each([
    ['2026-12-01', [], true, 'the day it is sent'],
    ['2026-12-01', ['2026-12-01'], false, 'already sent today'],
    ['2026-12-02', ['2026-12-01'], false, 'nothing scheduled'],
    ['2026-12-17', ['2026-12-01'], true, '14 days before'],
    ['2026-12-20', ['2026-12-01'], true, 'the 14-day run was missed: one now'],
    ['2026-12-20', ['2026-12-01', '2026-12-20'], false, 'and not again the same day'],
    ['2026-12-21', ['2026-12-01', '2026-12-20'], false, 'the catch-up covers until the 7-day'],
    ['2026-12-24', ['2026-12-01', '2026-12-17'], true, '7 days before'],
    ['2026-12-24', ['2026-12-01', '2026-12-23'], true, 'one sent by hand the day before does not cover the 7-day one'],
    ['2026-12-25', ['2026-12-01', '2026-12-24'], false, 'one sent by hand on the 7-day covers it'],
  ] as Array<[string, string[], boolean, string]>)('%s with %j sent → %s (%s)', (today, sentDays, expected) => {
    expect(reminderDue({ ...base, today, sentDays })).toBe(expected);
  });

  it('overdue: every 3 days after the due date, never on the days between', () => {
    const sent: string[] = ['2026-12-01', '2026-12-17', '2026-12-24', '2026-12-28', '2026-12-30'];
    const fired: string[] = [];
    for (let day = '2026-12-31'; day <= '2027-01-12'; day = addDays(day, 1)) {
      if (reminderDue({ ...base, today: day, sentDays: sent })) {
        fired.push(day);
        sent.push(day);
      }
    }
    expect(fired).toEqual(['2027-01-03', '2027-01-06', '2027-01-09', '2027-01-12']);
  });
});
