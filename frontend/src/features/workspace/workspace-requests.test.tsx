import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type {
  AwaitingReview,
  ClientRecord,
  ClientRequest,
  ClientTaxRecord,
  Deadline,
  IdentityList,
  IdentityPerson,
  NextDeadlinesReply,
  Person,
  Thread,
  UnreadThreads,
  WorkReply,
} from '@countinghouse/proto';
import { apiError, json, mockFetch, PUBLIC_CONFIG } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { setViewportMobile } from '../../test/setup';
import { ME_ACCOUNTANT, ME_MANAGER } from '../staff/fixtures';
import { client, page, queriesTo, task } from '../crm/test/fixtures';
import { AdminClientsPage, AdminTasksPage } from '../crm/pages';
import { IdentityVerificationPage } from '../identity-verification/IdentityVerificationPage';
import { DeadlineTable } from '../deadlines/DeadlineTable';
import { clientFirst } from '../../shared/client-first';
import { AdminClientRecordPage } from './pages';
import { joinPeople } from './PeopleCard';

// Issue 26's workspace with issue 28's requests and messages and issue 30's identity verification wired in.

const ID = '20000000-0000-4000-8000-000000000001';
const DEADLINE_ID = '30000000-0000-4000-8000-000000000001';
const config = { 'GET /api/public/config': () => json(200, PUBLIC_CONFIG) };
const ME = 'GET /api/identity/auth/me';

const record: ClientRecord = {
  client: {
    id: ID,
    company_name: 'Hale Plumbing',
    contact_name: 'Harry Hale',
    contact_email: 'harry@hale.example',
    contact_phone: null,
    business_type: 'limited',
    subscription_status: 'active',
    package_name: 'Limited Company',
    monthly_fee: 120,
    assigned_accountant_id: ME_ACCOUNTANT.user.user_id,
    assigned_accountant_name: 'Alex Ashdown',
    registration_date: '2026-01-05T10:00:00Z',
  },
  identifiers: {
    utr: null,
    vat_number: null,
    paye_reference: null,
    accounts_office_reference: null,
    nino: null,
    registered_office: null,
    sic_codes: [],
    updated_at: null,
    updated_by_name: null,
  },
  badges: { due_diligence: 'approved', letter: 'signed', overdue_deadlines: 0 },
  counts: { open_tasks: 1, timeline_entries: 0 },
  can: { edit: true, add_note: true },
};

const tax = {
  client_id: ID,
  client_name: 'Hale Plumbing',
  business_type: 'limited',
  profile: {
    company_number: null,
    company_type: 'private',
    incorporation_date: null,
    ard_day: 31,
    ard_month: 3,
    last_accounts_made_up_to: null,
    confirmation_review_date: null,
    vat_scheme: 'none',
    vat_annual_end_month: null,
    paye_scheme: false,
    paye_payday: null,
    sa_taxpayers: [],
  },
  companies_house_configured: false,
  company: null,
  company_error: null,
  updated_at: null,
  updated_by_name: null,
} as ClientTaxRecord;

const request = (over: Partial<ClientRequest>): ClientRequest => ({
  id: 'r1',
  client_id: ID,
  client_name: 'Hale Plumbing',
  title: 'Bank statements for 2025-26',
  due_on: '2026-11-01',
  status: 'open',
  deadline_id: null,
  assignee_id: null,
  sent_on: '2026-10-20',
  waiting_days: 12,
  open_items: 2,
  awaiting_review: 1,
  items: [
    item({ id: 'i1', label: 'Bank statements April to September', status: 'rejected', rejection_reason: 'page 3 missing' }),
    item({ id: 'i2', label: 'Bank statements October to March', status: 'submitted' }),
    item({ id: 'i3', label: 'Loan statement', status: 'accepted' }),
  ],
  reminders: [],
  activity: [],
  completed_at: null,
  created_at: '2026-10-20T09:00:00Z',
  ...over,
});
function item(over: Partial<ClientRequest['items'][number]>): ClientRequest['items'][number] {
  return {
    id: 'i',
    position: 0,
    kind: 'document',
    label: 'A document',
    document_type: 'bank_statements',
    status: 'requested',
    answer: null,
    confirmed: null,
    document_ids: [],
    rejection_reason: null,
    submitted_at: null,
    reviewed_at: null,
    ...over,
  };
}

const deadline = (over: Partial<Deadline>): Deadline => ({
  id: DEADLINE_ID,
  client_id: ID,
  client_name: 'Hale Plumbing',
  assigned_accountant_id: null,
  kind: 'vat_return',
  period: 'Quarter ended 30 Sep 2026',
  period_end: '2026-09-30',
  due_on: '2026-11-07',
  status: 'overdue',
  source: 'rule',
  done_at: null,
  done_by_name: null,
  ...over,
});

const person = (over: Partial<Person>): Person => ({
  id: 'p',
  name: 'SMITH, Jane',
  date_of_birth: null,
  address: '1 High Street',
  role: 'director',
  ownership_band: 'none',
  source: 'companies_house',
  ceased_on: null,
  evidence: [],
  ...over,
});
const idvPerson = (over: Partial<IdentityPerson>): IdentityPerson => ({
  client_id: ID,
  client_name: 'Hale Plumbing',
  assigned_accountant_id: null,
  person_key: 'officer:director:SMITH, Jane',
  name: 'SMITH, Jane',
  person_kind: 'director',
  status: 'verified',
  verified_on: '2026-03-02',
  verified_by: 'Ledger & Co',
  verified_source: 'companies_house',
  due_on: null,
  due_source: null,
  status_text: 'verified 2 Mar 2026',
  ...over,
});
const idvList = (people: IdentityPerson[]): IdentityList => ({
  people,
  total: people.length,
  total_capped: false,
  page: 1,
  page_size: 200,
  today: '2026-11-26',
});

const recordRoutes = (over: Record<string, () => Response> = {}) => ({
  ...config,
  [`GET /api/crm/clients/${ID}/record`]: () => json(200, record),
  [`GET /api/deadlines/clients/${ID}`]: () => json(200, tax),
  [`GET /api/deadlines/clients/${ID}/deadlines`]: () => json(200, { deadlines: [deadline({})], today: '2026-11-26' }),
  [`GET /api/aml/clients/${ID}`]: () => apiError(404, 'NOT_FOUND', 'No file'),
  'GET /api/deadlines/identity-verification': () => json(200, idvList([])),
  'GET /api/requests/threads/unread': () => json(200, { threads: [] } satisfies UnreadThreads),
  'GET /api/crm/tasks': () => json(200, { tasks: [], total: 0, page: 1, page_size: 100 }),
  ...over,
});
const adminRoutes = [{ path: '/admin/clients/:id', element: <AdminClientRecordPage /> }];
const urls = (fetchMock: ReturnType<typeof mockFetch>['fetchMock']) =>
  fetchMock.mock.calls.map(([r]) => (r instanceof Request ? r.url : String(r)));

describe('Client record: Requests tab', () => {
  it("lists the client's requests, open first, with open items, what waits for review and the due date", async () => {
    const fetch = mockFetch(
      recordRoutes({
        'GET /api/requests': () =>
          json(200, {
            requests: [
              request({
                id: 'r2',
                title: 'VAT quarter records',
                status: 'complete',
                due_on: '2026-09-01',
                open_items: 0,
                awaiting_review: 0,
                items: [item({ id: 'i9', status: 'accepted' })],
              }),
              request({}),
            ],
          }),
      }),
    );
    renderAt(`/admin/clients/${ID}?tab=requests`, { routes: adminRoutes });
    const open = (await screen.findByText('Bank statements for 2025-26')).closest('tr')!;
    expect(open).toHaveTextContent('2 of 3');
    expect(open).toHaveTextContent('01 Nov 2026 (overdue)');
    expect(open).toHaveTextContent('waiting 12 days');
    expect(within(open).getByText('Open')).toBeInTheDocument();
    const rows = [...document.querySelectorAll('tr[data-row-key]')].map((r) => r.getAttribute('data-row-key'));
    expect(rows).toEqual(['r1', 'r2']);
    expect(screen.getByText('1 open request, 2 open items')).toBeInTheDocument();
    // Only this client's requests are asked for.
    expect(queriesTo(fetch.fetchMock, 'GET', '/api/requests')[0]?.get('client_id')).toBe(ID);
    // The admin panel has no Requests page: no link to one.
    expect(screen.queryByRole('link', { name: /Requests page/ })).toBeNull();

    // A row opens its items, with the reason a rejected one was given.
    await userEvent.setup().click(within(open).getByRole('button', { name: /expand/i }));
    const items = await screen.findByRole('region', { name: 'Items of Bank statements for 2025-26' });
    expect(within(items).getByText('Rejected')).toBeInTheDocument();
    expect(within(items).getByText('Reason: page 3 missing')).toBeInTheDocument();
    expect(within(items).getByText('Submitted, waiting for review')).toBeInTheDocument();
  });

  it('links to the Requests page for staff, not for an accountant (who has no staff portal)', async () => {
    const routes = (me: typeof ME_MANAGER) =>
      recordRoutes({ [ME]: () => json(200, me), 'GET /api/requests': () => json(200, { requests: [request({})] }) });
    mockFetch(routes(ME_MANAGER));
    const first = renderAt(`/work/clients/${ID}?tab=requests`);
    expect(await screen.findByRole('link', { name: 'Send or review on the Requests page' })).toHaveAttribute(
      'href',
      '/staff/dashboard?tab=requests',
    );
    first.unmount();
    mockFetch(routes(ME_ACCOUNTANT));
    renderAt(`/work/clients/${ID}?tab=requests`);
    expect(await screen.findByText('Bank statements for 2025-26')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Requests page/ })).toBeNull();
  });

  it('says so when the requests cannot be loaded', async () => {
    mockFetch(recordRoutes({ 'GET /api/requests': () => apiError(403, 'FORBIDDEN', 'This client is not assigned to you') }));
    renderAt(`/admin/clients/${ID}?tab=requests`, { routes: adminRoutes });
    expect(await screen.findByText('This client is not assigned to you')).toBeInTheDocument();
  });
});

describe('Client record: Messages', () => {
  it('shows the secure thread with its unread count, and sends a message', async () => {
    const thread: Thread = {
      client_id: ID,
      client_name: 'Hale Plumbing',
      unread: 0,
      messages: [
        {
          id: 'm1',
          client_id: ID,
          side: 'client',
          author_name: 'Harry Hale',
          body: 'Here are the receipts',
          attachments: [{ document_id: 'd1', filename: 'receipts.pdf' }],
          created_at: '2026-11-25T10:00:00Z',
        },
      ],
    };
    const fetch = mockFetch(
      recordRoutes({
        'GET /api/requests/threads/unread': () =>
          json(200, { threads: [{ client_id: ID, client_name: 'Hale Plumbing', unread: 2, last_at: '2026-11-25T10:00:00Z' }] }),
        [`GET /api/requests/threads/${ID}`]: () => json(200, thread),
        [`POST /api/requests/threads/${ID}/messages`]: () => json(201, { ...thread.messages[0], id: 'm2', side: 'practice' }),
      }),
    );
    renderAt(`/admin/clients/${ID}`, { routes: adminRoutes });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Messages (2 unread)' }));
    expect(await screen.findByText('Here are the receipts')).toBeInTheDocument();
    expect(screen.getByText('Attached (in documents): receipts.pdf')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Your message'), 'Thank you, received');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    await waitFor(() => expect(fetch.callsTo(`POST /api/requests/threads/${ID}/messages`)).toHaveLength(1));
    expect(fetch.callsTo(`POST /api/requests/threads/${ID}/messages`)[0]?.body).toEqual({ body: 'Thank you, received' });
  });
});

describe('Client record: People with their identity verification', () => {
  it("shows each person's status from the identity verification view, and people only Companies House has", async () => {
    const fetch = mockFetch(
      recordRoutes({
        [`GET /api/aml/clients/${ID}`]: () =>
          json(200, {
            current: {
              people: [
                person({ id: 'a', name: 'SMITH, Jane', role: 'director' }),
                person({ id: 'b', name: 'SMITH, Jane', role: 'psc', ownership_band: '75_or_more' }),
                person({ id: 'c', name: 'Harry Hale', role: 'owner', source: 'manual', date_of_birth: '1980-02-29' }),
              ],
            },
          }),
        'GET /api/deadlines/identity-verification': () =>
          json(
            200,
            idvList([
              idvPerson({}),
              idvPerson({
                person_key: 'psc:SMITH, Jane',
                person_kind: 'psc',
                status: 'due',
                verified_on: null,
                verified_by: null,
                due_on: '2026-12-14',
                status_text: 'due 14 Dec 2026',
              }),
              idvPerson({
                person_key: 'officer:director:BROWN, Tom',
                name: 'BROWN, Tom',
                status: 'overdue',
                verified_on: null,
                verified_by: null,
                due_on: '2026-09-01',
                status_text: 'overdue since 1 Sep 2026',
              }),
            ]),
          ),
      }),
    );
    renderAt(`/admin/clients/${ID}`, { routes: adminRoutes });
    await screen.findByText('BROWN, Tom');
    const rows = () => [...document.querySelectorAll<HTMLElement>('[data-person]')];
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(rows()[0]).toHaveTextContent('SMITH, Jane');
    expect(rows()[0]).toHaveTextContent('Identity verification: verified 2 Mar 2026 by Ledger & Co');
    expect(rows()[1]).toHaveTextContent('Identity verification: due 14 Dec 2026');
    expect(rows()[2]).toHaveTextContent('Harry Hale');
    expect(rows()[2]).not.toHaveTextContent('Identity verification');
    expect(rows()[3]).toHaveTextContent('BROWN, Tom');
    expect(rows()[3]).toHaveTextContent('overdue since 1 Sep 2026');
    expect(rows()[3]!.querySelector('[data-idv-status="overdue"]')).toHaveClass('ant-tag-red');
    const q = queriesTo(fetch.fetchMock, 'GET', '/api/deadlines/identity-verification')[0]!;
    expect(Object.fromEntries(q)).toMatchObject({ client_id: ID, filter: 'all' });
  });

  it('joins an officer to the officer and a PSC to the PSC of the same name; ceased people left out', () => {
    const rows = joinPeople(
      [
        person({ id: 'psc', name: 'Jane  Smith', role: 'psc' }),
        person({ id: 'dir', name: 'jane smith', role: 'director' }),
        person({ id: 'gone', name: 'Old Director', ceased_on: '2025-01-01' }),
      ],
      [
        idvPerson({ name: 'Jane Smith', person_kind: 'director', status_text: 'verified 2 Mar 2026' }),
        idvPerson({ name: 'Jane Smith', person_kind: 'psc', person_key: 'psc:Jane Smith', status: 'due', status_text: 'due 4 Dec 2026' }),
      ],
    );
    expect(rows.map((r) => [r.key, r.idv?.status_text])).toEqual([
      ['psc', 'due 4 Dec 2026'],
      ['dir', 'verified 2 Mar 2026'],
    ]);
  });
});

describe('Client record: a task from a deadline', () => {
  it('links to its deadline, which the Deadlines tab names first', async () => {
    mockFetch(
      recordRoutes({
        'GET /api/crm/tasks': () =>
          json(200, {
            tasks: [
              task({ title: 'Prepare the VAT return', client_id: ID, client_company_name: 'Hale Plumbing', deadline_id: DEADLINE_ID }),
              task({ title: 'Call the client', client_id: ID, client_company_name: 'Hale Plumbing', deadline_id: null }),
            ],
            total: 2,
            page: 1,
            page_size: 100,
          }),
      }),
    );
    const { router } = renderAt(`/admin/clients/${ID}?tab=tasks`, { routes: adminRoutes });
    const link = await screen.findByRole('link', { name: 'Open its deadline: Prepare the VAT return' });
    expect(link).toHaveAttribute('href', `/admin/clients/${ID}?tab=deadlines&deadline=${DEADLINE_ID}`);
    expect(screen.queryByRole('link', { name: 'Open its deadline: Call the client' })).toBeNull();
    await userEvent.setup().click(link);
    await waitFor(() => expect(router.state.location.search).toBe(`?tab=deadlines&deadline=${DEADLINE_ID}`));
    expect(
      await screen.findByText("The task's deadline: VAT return and payment, Quarter ended 30 Sep 2026, due 07 Nov 2026 (overdue)"),
    ).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Deadlines', selected: true })).toBeInTheDocument();
  });
});

const work = (): WorkReply => ({ items: [], today: '2026-11-26', who: 'mine' });

describe('My work: requests and messages', () => {
  const workRoutes = (over: Record<string, () => Response> = {}) => ({
    ...config,
    [ME]: () => json(200, ME_ACCOUNTANT),
    'GET /api/deadlines/work': () => json(200, work()),
    'GET /api/crm/work': () => json(200, work()),
    'GET /api/aml/work': () => json(200, work()),
    'GET /api/engagement/work': () => json(200, work()),
    'GET /api/crm/tasks': () => json(200, { tasks: [], total: 0, page: 1, page_size: 100 }),
    ...over,
  });

  it('lists items submitted and waiting for review, and unread threads, each linking to the record', async () => {
    const review: AwaitingReview = {
      items: [
        {
          request_id: 'r1',
          item_id: 'i2',
          client_id: ID,
          client_name: 'Hale Plumbing',
          title: 'Bank statements for 2025-26',
          label: 'October to March',
          submitted_at: '2026-11-24T09:30:00Z',
        },
      ],
    };
    mockFetch(
      workRoutes({
        'GET /api/requests/awaiting-review': () => json(200, review),
        'GET /api/requests/threads/unread': () =>
          json(200, { threads: [{ client_id: ID, client_name: 'Hale Plumbing', unread: 3, last_at: '2026-11-25T10:00:00Z' }] }),
      }),
    );
    renderAt('/work');
    const reviewCard = (await screen.findByText('Bank statements for 2025-26: October to March')).closest('.ant-card') as HTMLElement;
    expect(within(reviewCard).getByRole('heading', { name: /Submitted, waiting for review/ })).toHaveTextContent('1');
    expect(within(reviewCard).getByRole('link', { name: 'Hale Plumbing' })).toHaveAttribute('href', `/work/clients/${ID}?tab=requests`);
    const unreadCard = screen.getByText('3 unread messages').closest('.ant-card') as HTMLElement;
    expect(within(unreadCard).getByRole('heading', { name: /Unread messages/ })).toBeInTheDocument();
    expect(within(unreadCard).getByRole('link', { name: 'Hale Plumbing' })).toHaveAttribute('href', `/work/clients/${ID}?tab=messages`);
  });

  it('empty sections say so; a refused one (403) is not shown', async () => {
    mockFetch(
      workRoutes({
        'GET /api/requests/awaiting-review': () => json(200, { items: [] }),
        'GET /api/requests/threads/unread': () => apiError(403, 'FORBIDDEN', 'Not allowed'),
      }),
    );
    renderAt('/work');
    expect(await screen.findByText('Nothing waiting for review')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /Unread messages/ })).toBeNull();
  });
});

describe('Clients list: next deadline per client', () => {
  it("asks W1's per-client route for this page's clients and shows each one's next deadline", async () => {
    const a = client({ id: '40000000-0000-4000-8000-000000000001', company_name: 'Acme Ltd' });
    const b = client({ id: '40000000-0000-4000-8000-000000000002', company_name: 'Brown & Co' });
    const next: NextDeadlinesReply = {
      next: [
        {
          client_id: a.id,
          deadline_id: DEADLINE_ID,
          kind: 'vat_return',
          period: 'Quarter ended 30 Sep 2026',
          due_on: '2026-11-07',
          overdue: true,
          overdue_count: 3,
        },
      ],
      today: '2026-11-26',
    };
    const fetch = mockFetch({
      'GET /api/crm/clients': () => json(200, page('clients', [a, b], 2)),
      'GET /api/deadlines/next': () => json(200, next),
    });
    renderAt('/admin/clients', { routes: [{ path: '/admin/clients', element: <AdminClientsPage /> }] });
    const row = (await screen.findByText('Acme Ltd')).closest('tr')!;
    await waitFor(() => expect(row).toHaveTextContent('07 Nov 2026'));
    expect(row).toHaveTextContent('(3 overdue)');
    expect(within(row).getByText('07 Nov 2026', { exact: false }).closest('.ant-typography')).toHaveClass('ant-typography-danger');
    const other = screen.getByText('Brown & Co').closest('tr')!;
    expect(other).not.toHaveTextContent('Nov 2026');
    expect(queriesTo(fetch.fetchMock, 'GET', '/api/deadlines/next').at(-1)?.get('client_ids')).toBe(`${a.id},${b.id}`);
    // No page-wide deadlines list any more.
    expect(urls(fetch.fetchMock).some((u) => new URL(u).pathname === '/api/deadlines')).toBe(false);
  });
});

describe('390 px: the client first', () => {
  it('clientFirst moves the client column to the front on a narrow screen only', () => {
    const cols = [{ key: 'due' }, { dataIndex: 'client_name' }, { key: 'kind' }];
    expect(clientFirst(cols, true, 'client_name')).toEqual([{ dataIndex: 'client_name' }, { key: 'due' }, { key: 'kind' }]);
    expect(clientFirst(cols, false, 'client_name')).toEqual(cols);
    expect(clientFirst(cols, true, 'nobody')).toEqual(cols);
  });

  it('the deadlines table puts Client before Due on a phone', () => {
    setViewportMobile();
    mockFetch(config);
    renderAt('/', { routes: [{ path: '/', element: <DeadlineTable deadlines={[deadline({})]} /> }] });
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(0, 2)).toEqual(['Client', 'Due']);
  });
});

describe('390 px: the client first in the tasks list and the identity verification view', () => {
  const headersOf = async (text: string) => {
    await screen.findByText(text);
    return screen.getAllByRole('columnheader').map((h) => h.textContent);
  };

  it('admin tasks: Client, then Title', async () => {
    setViewportMobile();
    mockFetch({ 'GET /api/crm/tasks': () => json(200, page('tasks', [task({ title: 'File VAT return' })], 1, 1, 20)) });
    renderAt('/admin/tasks', { routes: [{ path: '/admin/tasks', element: <AdminTasksPage /> }] });
    expect((await headersOf('File VAT return')).slice(0, 2)).toEqual(['Client', 'Title']);
  });

  it('identity verification: Client, then Person', async () => {
    setViewportMobile();
    mockFetch({
      'GET /api/crm/team-members': () => json(200, { members: [] }),
      'GET /api/crm/clients': () => json(200, { clients: [], total: 0, page: 1, page_size: 20 }),
      'GET /api/deadlines/identity-verification': () => json(200, idvList([idvPerson({})])),
    });
    renderAt('/admin/identity-verification', { routes: [{ path: '/admin/identity-verification', element: <IdentityVerificationPage /> }] });
    expect((await headersOf('SMITH, Jane')).slice(0, 2)).toEqual(['Client', 'Person']);
  });

  it('a wide screen keeps the identity verification view as it was: Person first', async () => {
    mockFetch({
      'GET /api/crm/team-members': () => json(200, { members: [] }),
      'GET /api/crm/clients': () => json(200, { clients: [], total: 0, page: 1, page_size: 20 }),
      'GET /api/deadlines/identity-verification': () => json(200, idvList([idvPerson({})])),
    });
    renderAt('/admin/identity-verification', { routes: [{ path: '/admin/identity-verification', element: <IdentityVerificationPage /> }] });
    expect((await headersOf('SMITH, Jane'))[0]).toBe('Person');
  });
});
