import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CapacityWeek, JobSchedule, JobSummary } from '@countinghouse/proto';
import { apiError, json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { ClientJobsPage } from './ClientJobsPage';
import { ClientJobsTab } from './ClientJobsTab';

// The client record's Jobs tab (issue 29): the client's jobs and its recurring work.

const CLIENT = 'c1';
const LIST = 'GET /api/deadlines/jobs';
const SCHEDULES = `/api/deadlines/jobs/schedules/${CLIENT}`;

const job = (j: Partial<JobSummary>): JobSummary => ({
  id: 'j1',
  client_id: CLIENT,
  client_name: 'Acme Widgets Ltd',
  kind: 'year_end_accounts',
  title: 'Year-end accounts: year ended 31 Mar 2026',
  period: 'Year ended 31 Mar 2026',
  stage: 'In preparation',
  stage_index: 2,
  status: 'open',
  due_on: '2026-12-21',
  statutory_due_on: '2026-12-31',
  assignee_id: 'u2',
  assignee_name: 'Ann Accountant',
  reviewer_id: null,
  reviewer_name: null,
  budget_minutes: 480,
  used_minutes: 90,
  waiting_on_client: false,
  waiting_request: null,
  overdue: false,
  deadline_id: 'd1',
  ...j,
});

const schedule = (s: Partial<JobSchedule>): JobSchedule => ({
  client_id: CLIENT,
  kind: 'bookkeeping',
  day_of_month: 15,
  active: true,
  next_due_on: '2026-12-15',
  ...s,
});

const routes = [{ path: '/admin/clients/:id', element: <ClientJobsTab clientId={CLIENT} realm="admin" base="/admin" /> }];
const list = (jobs: JobSummary[]) =>
  json(200, { jobs, total: jobs.length, total_capped: false, page: 1, page_size: 20, today: '2026-11-26' });

describe("A client's jobs on the client record (issue 29)", { timeout: 60_000 }, () => {
  it("lists the client's open jobs with stage, due date, assignee and time, each linking to its page", async () => {
    mockFetch({
      [LIST]: () =>
        list([
          job({}),
          job({
            id: 'j2',
            title: 'VAT return: quarter to 30 Sep 2026',
            kind: 'vat_return',
            overdue: true,
            waiting_on_client: true,
            due_on: '2026-11-01',
          }),
        ]),
      [`GET ${SCHEDULES}`]: () => json(200, { schedules: [] }),
    });
    renderAt(`/admin/clients/${CLIENT}`, { routes });
    const link = await screen.findByRole('link', { name: 'Year-end accounts: year ended 31 Mar 2026' });
    expect(link).toHaveAttribute('href', '/admin/client-jobs/j1');
    const row = link.closest('tr')!;
    expect(within(row).getByText('In preparation')).toBeInTheDocument();
    expect(within(row).getByText('21 Dec 2026')).toBeInTheDocument();
    expect(within(row).getByText('Ann Accountant')).toBeInTheDocument();
    expect(within(row).getByText('1.5 h of 8.0 h')).toBeInTheDocument();
    const late = screen.getByRole('link', { name: 'VAT return: quarter to 30 Sep 2026' }).closest('tr')!;
    expect(late.textContent).toContain('1 Nov 2026 (overdue)');
    expect(within(late).getByText('Waiting on the client')).toBeInTheDocument();
    // Bookkeeping and payroll are offered, neither recurring yet.
    expect(await screen.findByRole('switch', { name: 'Bookkeeping recurs monthly' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Payroll run recurs monthly' })).not.toBeChecked();
  });

  it('the empty state, and a role without jobs is told so', async () => {
    mockFetch({ [LIST]: () => list([]), [`GET ${SCHEDULES}`]: () => json(200, { schedules: [] }) });
    const first = renderAt(`/admin/clients/${CLIENT}`, { routes });
    expect(await screen.findByText('No open jobs')).toBeInTheDocument();
    first.unmount();
    mockFetch({
      [LIST]: () => apiError(403, 'FORBIDDEN', 'Forbidden'),
      [`GET ${SCHEDULES}`]: () => apiError(403, 'FORBIDDEN', 'Forbidden'),
    });
    renderAt(`/admin/clients/${CLIENT}`, { routes });
    expect(await screen.findByText("Your role does not include the practice's jobs.")).toBeInTheDocument();
  });

  it('turns bookkeeping on for day 15, then moves it to day 20', async () => {
    const { callsTo } = mockFetch({
      [LIST]: () => list([]),
      [`GET ${SCHEDULES}`]: [
        () => json(200, { schedules: [] }),
        () => json(200, { schedules: [schedule({})] }),
        () => json(200, { schedules: [schedule({ day_of_month: 20, next_due_on: '2026-12-20' })] }),
      ],
      [`PUT ${SCHEDULES}/bookkeeping`]: (c) =>
        json(200, { schedules: [schedule({ day_of_month: (c.body as { day_of_month: number }).day_of_month })] }),
    });
    renderAt(`/admin/clients/${CLIENT}`, { routes });
    const user = userEvent.setup();
    const day = await screen.findByLabelText('Due on day', { selector: '#schedule-day-bookkeeping' });
    await user.clear(day);
    await user.type(day, '15');
    await user.click(screen.getByRole('switch', { name: 'Bookkeeping recurs monthly' }));
    await waitFor(() => expect(callsTo(`PUT ${SCHEDULES}/bookkeeping`)).toHaveLength(1));
    expect(callsTo(`PUT ${SCHEDULES}/bookkeeping`)[0]!.body).toEqual({ active: true, day_of_month: 15 });
    expect(await screen.findByText('Next due 15 Dec 2026')).toBeInTheDocument();
    const again = screen.getByLabelText('Due on day', { selector: '#schedule-day-bookkeeping' });
    await user.clear(again);
    await user.type(again, '20');
    await user.click(screen.getByRole('button', { name: 'Save day' }));
    await waitFor(() => expect(callsTo(`PUT ${SCHEDULES}/bookkeeping`)).toHaveLength(2));
    expect(callsTo(`PUT ${SCHEDULES}/bookkeeping`)[1]!.body).toEqual({ active: true, day_of_month: 20 });
    expect(await screen.findByText('Next due 20 Dec 2026')).toBeInTheDocument();
  });
});

describe('Capacity: reassigning an over-allocated week (issue 29)', { timeout: 60_000 }, () => {
  const week = (w: Partial<CapacityWeek>): CapacityWeek => ({
    week_start: '2026-11-30',
    budgeted_minutes: 0,
    available_minutes: 20 * 60,
    leave_days: 0,
    jobs: 0,
    over_allocated: false,
    ...w,
  });
  const over = week({ budgeted_minutes: 24 * 60, available_minutes: 16 * 60, leave_days: 1, jobs: 4, over_allocated: true });
  const capacity = (ann: CapacityWeek) =>
    json(200, {
      weeks: ['2026-11-30'],
      people: [
        { user_id: 'u2', name: 'Ann Accountant', weeks: [ann] },
        { user_id: 'u3', name: 'Bo Bookkeeper', weeks: [week({})] },
      ],
      team: [ann],
    });
  const pageRoutes = [{ path: '/admin/client-jobs', element: <ClientJobsPage realm="admin" base="/admin" canSettle /> }];

  it("opens Ann's over-allocated week and hands a job to Bo: the change is sent and the week is read again", async () => {
    const { callsTo } = mockFetch({
      'GET /api/deadlines/jobs/board': () => json(200, { kind: 'year_end_accounts', columns: [], today: '2026-11-26' }),
      'GET /api/deadlines/jobs/capacity': [
        () => capacity(over),
        () => capacity(week({ budgeted_minutes: 18 * 60, available_minutes: 16 * 60, leave_days: 1, jobs: 3, over_allocated: true })),
      ],
      [LIST]: [() => list([job({ due_on: '2026-12-02', budget_minutes: 360 })]), () => list([])],
      'PATCH /api/deadlines/jobs/j1': () => json(200, { job: job({ assignee_id: 'u3' }) }),
    });
    renderAt('/admin/client-jobs', { routes: pageRoutes });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Capacity' }));
    const cellButton = await screen.findByRole('button', {
      name: /Ann Accountant, week commencing 30 Nov 2026: 24\.0 h budgeted of 16\.0 h, over-allocated/,
    });
    expect(screen.queryByRole('button', { name: /Bo Bookkeeper, week commencing/ })).not.toBeInTheDocument();
    await user.click(cellButton);
    const dialog = await screen.findByRole('dialog', { name: 'Ann Accountant: jobs due in the week commencing 30 Nov 2026' });
    await within(dialog).findByText('Acme Widgets Ltd: Year-end accounts: year ended 31 Mar 2026');
    await user.click(within(dialog).getByLabelText('Reassign Acme Widgets Ltd: Year-end accounts: year ended 31 Mar 2026 to'));
    await user.click(await screen.findByTitle('Bo Bookkeeper'));
    await waitFor(() => expect(callsTo('PATCH /api/deadlines/jobs/j1')).toHaveLength(1));
    expect(callsTo('PATCH /api/deadlines/jobs/j1')[0]!.body).toEqual({ assignee_id: 'u3' });
    expect(await within(dialog).findByText('No open jobs left this week')).toBeInTheDocument();
    await waitFor(() => expect(callsTo('GET /api/deadlines/jobs/capacity').length).toBeGreaterThanOrEqual(2));
  });
});
