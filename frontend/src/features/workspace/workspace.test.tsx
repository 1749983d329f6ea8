import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  IDENTIFIER_MESSAGES,
  type ClientRecord,
  type ClientTaxRecord,
  type TaxProfileInput,
  type TimelineReply,
  type WorkItem,
  type WorkReply,
} from '@countinghouse/proto';
import { apiError, json, mockFetch, PUBLIC_CONFIG } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { ME_ACCOUNTANT, ME_MANAGER } from '../staff/fixtures';
import { AdminClientRecordPage } from './pages';
import { overdueFirst } from './order';

const ID = '20000000-0000-4000-8000-000000000001';
const OTHER = '20000000-0000-4000-8000-000000000002';
const config = { 'GET /api/public/config': () => json(200, PUBLIC_CONFIG) };
const ME = 'GET /api/identity/auth/me';

const record = (over: Partial<ClientRecord> = {}): ClientRecord => ({
  client: {
    id: ID,
    company_name: 'Hale Plumbing',
    contact_name: 'Harry Hale',
    contact_email: 'harry@hale.example',
    contact_phone: null,
    business_type: 'sole_trader',
    subscription_status: 'active',
    package_name: 'Sole Trader',
    monthly_fee: 50,
    assigned_accountant_id: ME_ACCOUNTANT.user.user_id,
    assigned_accountant_name: 'Alex Ashdown',
    registration_date: '2026-01-05T10:00:00Z',
  },
  identifiers: {
    utr: '1123456789',
    vat_number: null,
    paye_reference: null,
    accounts_office_reference: null,
    nino: 'AB123456C',
    registered_office: null,
    sic_codes: [],
    updated_at: null,
    updated_by_name: null,
  },
  badges: { due_diligence: 'outstanding', letter: 'signed', overdue_deadlines: 2 },
  counts: { open_tasks: 1, timeline_entries: 4 },
  can: { edit: true, add_note: true },
  ...over,
});

const profile: TaxProfileInput = {
  company_number: null,
  company_type: 'private',
  incorporation_date: null,
  ard_day: 5,
  ard_month: 4,
  last_accounts_made_up_to: null,
  confirmation_review_date: null,
  vat_scheme: 'none',
  vat_annual_end_month: null,
  paye_scheme: false,
  paye_payday: null,
  sa_taxpayers: [],
};
const tax: ClientTaxRecord = {
  client_id: ID,
  client_name: 'Hale Plumbing',
  business_type: 'sole_trader',
  profile,
  companies_house_configured: false,
  company: null,
  company_error: null,
  updated_at: null,
  updated_by_name: null,
};

const timeline: TimelineReply = {
  entries: [
    {
      id: 'e4',
      client_id: ID,
      kind: 'document_uploaded',
      at: '2026-11-04T10:00:00Z',
      summary: 'Bank statement uploaded',
      actor_name: 'Harry Hale',
      source: 'documents',
      ref: null,
    },
    {
      id: 'e3',
      client_id: ID,
      kind: 'letter_signed',
      at: '2026-11-03T10:00:00Z',
      summary: 'Engagement letter v1 signed by Harry Hale',
      actor_name: null,
      source: 'engagement',
      ref: null,
    },
    {
      id: 'e2',
      client_id: ID,
      kind: 'payment',
      at: '2026-11-02T10:00:00Z',
      summary: 'Paid £50.00',
      actor_name: null,
      source: 'billing',
      ref: null,
    },
    {
      id: 'e1',
      client_id: ID,
      kind: 'signed_up',
      at: '2026-11-01T10:00:00Z',
      summary: 'Signed up',
      actor_name: null,
      source: 'identity',
      ref: null,
    },
  ],
  next_cursor: null,
};

/** What the record's tabs ask for besides the record (empty but well formed). */
const recordRoutes = (over: Record<string, () => Response> = {}) => ({
  ...config,
  [`GET /api/crm/clients/${ID}/record`]: () => json(200, record()),
  [`GET /api/crm/clients/${ID}/timeline`]: () => json(200, timeline),
  [`GET /api/deadlines/clients/${ID}`]: () => json(200, tax),
  [`GET /api/deadlines/clients/${ID}/deadlines`]: () => json(200, { deadlines: [], today: '2026-11-26' }),
  [`GET /api/aml/clients/${ID}`]: () => apiError(404, 'NOT_FOUND', 'No file'),
  ...over,
});

const adminRoutes = [{ path: '/admin/clients/:id', element: <AdminClientRecordPage /> }];

describe('Client record', () => {
  it('shows the header, the badges and the identifiers', async () => {
    mockFetch(recordRoutes());
    renderAt(`/admin/clients/${ID}`, { routes: adminRoutes });
    expect(await screen.findByRole('heading', { level: 1, name: 'Hale Plumbing' })).toBeInTheDocument();
    expect(screen.getByText('Accountant: Alex Ashdown')).toBeInTheDocument();
    expect(screen.getByText(/Sole Trader · £50\.00\/month/)).toBeInTheDocument();
    const badges = screen.getByRole('list', { name: 'Badges' });
    expect(within(badges).getByText('Due diligence outstanding')).toBeInTheDocument();
    expect(within(badges).getByText('Letter signed')).toBeInTheDocument();
    expect(within(badges).getByText('2 overdue deadlines')).toBeInTheDocument();
    expect(await screen.findByText('1123456789')).toBeInTheDocument();
    expect(screen.getByText('AB123456C')).toBeInTheDocument();
    expect(await screen.findByText('5 April')).toBeInTheDocument();
  });

  it('no due diligence badge once the file is approved', async () => {
    mockFetch(
      recordRoutes({
        [`GET /api/crm/clients/${ID}/record`]: () =>
          json(200, record({ badges: { due_diligence: 'approved', letter: 'none', overdue_deadlines: 0 } })),
      }),
    );
    renderAt(`/admin/clients/${ID}`, { routes: adminRoutes });
    const badges = await screen.findByRole('list', { name: 'Badges' });
    expect(within(badges).queryByText('Due diligence outstanding')).toBeNull();
    expect(within(badges).queryByText(/overdue deadline/)).toBeNull();
  });

  it('403 from the API: a page that says "You don\'t have access to this client"', async () => {
    mockFetch({
      ...config,
      [ME]: () => json(200, ME_ACCOUNTANT),
      [`GET /api/crm/clients/${OTHER}/record`]: () => apiError(403, 'FORBIDDEN', 'This client is not assigned to you'),
    });
    renderAt(`/work/clients/${OTHER}`);
    expect(await screen.findByText("You don't have access to this client")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to My work' })).toHaveAttribute('href', '/work');
  });

  it('refuses a UTR with a wrong check digit in the form, before anything is sent', async () => {
    const fetch = mockFetch(
      recordRoutes({
        [`PUT /api/crm/clients/${ID}/identifiers`]: () => json(200, { identifiers: record().identifiers, message: 'Saved' }),
      }),
    );
    renderAt(`/admin/clients/${ID}`, { routes: adminRoutes });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit identifiers' }));
    const utr = screen.getByLabelText('UTR');
    await user.clear(utr);
    await user.click(utr);
    await user.paste('2123456789'); // the check digit of 123456789 is 1
    await user.click(screen.getByRole('button', { name: 'Save identifiers' }));
    expect(await screen.findByText(IDENTIFIER_MESSAGES.utrCheck)).toBeInTheDocument();
    const nino = screen.getByLabelText('National Insurance number');
    await user.clear(nino);
    await user.click(nino);
    await user.paste('DA123456C');
    await user.click(screen.getByRole('button', { name: 'Save identifiers' }));
    expect(await screen.findByText(IDENTIFIER_MESSAGES.ninoPrefix)).toBeInTheDocument();
    expect(fetch.callsTo(`PUT /api/crm/clients/${ID}/identifiers`)).toHaveLength(0);
  }, 40_000);

  it("puts the server's per-field message beside its field", async () => {
    const fetch = mockFetch(
      recordRoutes({
        [`PUT /api/crm/clients/${ID}/identifiers`]: () =>
          json(400, {
            error: {
              code: 'VALIDATION_FAILED',
              message: 'Check the identifiers',
              details: [{ path: '/vat_number', message: 'Already used by another client' }],
            },
          }),
      }),
    );
    renderAt(`/admin/clients/${ID}`, { routes: adminRoutes });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit identifiers' }));
    await user.click(screen.getByLabelText('VAT registration number'));
    await user.paste('GB 123 4567 82');
    await user.click(screen.getByRole('button', { name: 'Save identifiers' }));
    expect(await screen.findByText('Already used by another client')).toBeInTheDocument();
    expect(fetch.callsTo(`PUT /api/crm/clients/${ID}/identifiers`)[0]?.body).toMatchObject({
      vat_number: 'GB 123 4567 82',
      utr: '1123456789',
    });
  });

  it('the Timeline lists signed up, paid, letter signed and document uploaded, newest first', async () => {
    mockFetch(recordRoutes());
    renderAt(`/admin/clients/${ID}`, { routes: adminRoutes });
    await userEvent.setup().click(await screen.findByRole('tab', { name: 'Timeline' }));
    await screen.findByText('Bank statement uploaded');
    const kinds = [...document.querySelectorAll('[data-timeline-kind]')].map((e) => e.getAttribute('data-timeline-kind'));
    expect(kinds).toEqual(['document_uploaded', 'letter_signed', 'payment', 'signed_up']);
  });
});

const item = (over: Partial<WorkItem>): WorkItem => ({
  kind: 'deadline',
  id: 'x',
  client_id: ID,
  client_name: 'Hale Plumbing',
  title: 'VAT return',
  due_on: '2026-11-20',
  bucket: 'overdue',
  assignee_id: null,
  assignee_name: null,
  deadline_id: null,
  ...over,
});
const work = (items: WorkItem[], who: 'mine' | 'everyone' = 'mine'): WorkReply => ({ items, today: '2026-11-26', who });

describe('My work', () => {
  const workRoutes = (me = ME_ACCOUNTANT) => ({
    ...config,
    [ME]: () => json(200, me),
    'GET /api/deadlines/work': () =>
      json(200, work([item({ id: 'd1', title: 'Self Assessment return', due_on: '2026-11-20', bucket: 'overdue' })])),
    'GET /api/crm/work': () =>
      json(200, work([item({ kind: 'task', id: 't1', title: 'Chase bank statements', due_on: '2026-11-27', bucket: 'this_week' })])),
    'GET /api/aml/work': () =>
      json(200, work([item({ kind: 'aml_review', id: 'a1', title: 'Due diligence review', due_on: '2026-12-02', bucket: 'next_week' })])),
    'GET /api/engagement/work': () => json(200, work([])),
    'GET /api/crm/tasks': () => json(200, { tasks: [], total: 0, page: 1, page_size: 100 }),
  });

  it("an accountant's overdue, this week and next week, each linking to the client's record", async () => {
    const fetch = mockFetch(workRoutes());
    renderAt('/work');
    expect(await screen.findByRole('heading', { level: 1, name: 'My work' })).toBeInTheDocument();
    const overdue = (await screen.findByText('Self Assessment return')).closest('.ant-card')!;
    expect(within(overdue as HTMLElement).getByRole('heading', { name: /Overdue/ })).toBeInTheDocument();
    const thisWeek = screen.getByText('Chase bank statements').closest('.ant-card') as HTMLElement;
    expect(within(thisWeek).getByRole('heading', { name: /Due this week/ })).toBeInTheDocument();
    const nextWeek = screen.getByText('Due diligence review').closest('.ant-card') as HTMLElement;
    expect(within(nextWeek).getByRole('heading', { name: /Due next week/ })).toBeInTheDocument();
    expect(within(overdue as HTMLElement).getByRole('link', { name: 'Hale Plumbing' })).toHaveAttribute('href', `/work/clients/${ID}`);
    // An accountant sees only their own work: no Mine / Everyone switch, and "mine" asked for.
    expect(screen.queryByRole('radio', { name: 'Everyone' })).toBeNull();
    expect(fetch.calls.filter((c) => c.path.endsWith('/work')).length).toBeGreaterThanOrEqual(4);
  });

  it('a manager can switch to everyone', async () => {
    const fetch = mockFetch(workRoutes(ME_MANAGER));
    renderAt('/work');
    await screen.findByText('Self Assessment return');
    await userEvent.setup().click(screen.getByText('Everyone'));
    await waitFor(() => expect(fetch.calls.some((c) => c.path === '/api/deadlines/work' && c.method === 'GET')).toBe(true));
    await waitFor(() =>
      expect(fetch.fetchMock.mock.calls.some(([r]) => String(r instanceof Request ? r.url : r).includes('who=everyone'))).toBe(true),
    );
  });

  it('a client is sent to their dashboard', async () => {
    mockFetch({ ...config, [ME]: () => json(200, { ...ME_ACCOUNTANT, roles: ['client'], staff_role: null }) });
    const { router } = renderAt('/work');
    await waitFor(() => expect(router.state.location.pathname).toBe('/client-dashboard'));
  });
});

describe('order', () => {
  it('overdue first, then by due date; done last', () => {
    const d = (id: string, status: 'overdue' | 'upcoming' | 'due_soon' | 'done', due_on: string) =>
      ({ id, status, due_on }) as Parameters<typeof overdueFirst>[0][number];
    expect(
      overdueFirst([
        d('a', 'upcoming', '2026-12-01'),
        d('b', 'done', '2026-10-01'),
        d('c', 'overdue', '2026-11-01'),
        d('e', 'due_soon', '2026-11-28'),
      ]).map((x) => x.id),
    ).toEqual(['c', 'e', 'a', 'b']);
  });
});
