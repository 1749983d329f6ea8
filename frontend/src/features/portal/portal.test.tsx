import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CRM_ROUTES, type Client, type ClientRequest, type Deadline, type Invoice, type Me, type Thread } from '@countinghouse/proto';
import { apiError, json, mockFetch, PUBLIC_CONFIG, type Call } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { clientActionOf } from '../deadlines/client-actions';

// Issue 33, item 4: the client portal. Its own layout and nav; Home (/dashboard); Documents, Requests,
// Messages, Deadlines, Billing and Account under /portal.

const CLIENT_ID = '00000000-0000-4000-8000-0000000000c1';
const ME: Me = {
  user: {
    user_id: '00000000-0000-4000-8000-000000000009',
    email: 'grace@example.co.uk',
    first_name: 'Grace',
    last_name: 'Hopper',
    company_name: null,
    role: 'client',
    created_at: '2026-11-01T10:00:00Z',
  },
  roles: ['client'],
  staff_role: null,
  session_expires_at: '2026-12-01T10:00:00Z',
};
const CLIENT: Client = {
  id: CLIENT_ID,
  user_id: ME.user.user_id,
  company_name: 'Grace Growth Ltd',
  contact_name: 'Grace Hopper',
  contact_email: 'grace@example.co.uk',
  contact_phone: '020 7946 0123',
  business_type: 'limited',
  package_name: 'Growth',
  monthly_fee: 100,
  subscription_status: 'active',
  next_billing_date: '2026-12-22',
  registration_date: '2026-11-22T10:00:00Z',
  onboarding_completed: true,
  employees_count: 4,
  created_at: '2026-11-22T10:00:00Z',
  updated_at: '2026-11-22T10:00:00Z',
  assigned_accountant_id: null,
  assigned_accountant_name: null,
};
const SUBSCRIBED = {
  subscribed: true,
  package_name: 'Growth',
  subscription_end: '2026-12-22T00:00:00Z',
  status: 'active',
  monthly_fee: 100,
  provider: 'test',
};
const NOT_SUBSCRIBED = { subscribed: false, package_name: null, subscription_end: null, status: null, monthly_fee: null, provider: null };

const deadline = (over: Partial<Deadline>): Deadline => ({
  id: '00000000-0000-4000-8000-0000000000d1',
  client_id: CLIENT_ID,
  client_name: 'Grace Growth Ltd',
  assigned_accountant_id: null,
  kind: 'vat_return',
  period: 'Quarter ended 30 Nov 2026',
  period_end: '2026-11-30',
  due_on: '2027-01-07',
  status: 'upcoming',
  source: 'rule',
  done_at: null,
  done_by_name: null,
  ...over,
});
const DEADLINES = {
  today: '2026-11-26',
  deadlines: [
    deadline({}),
    deadline({ id: '00000000-0000-4000-8000-0000000000d2', kind: 'ct_payment', period: 'Year ended 31 Mar 2026', due_on: '2027-01-01' }),
    deadline({ id: '00000000-0000-4000-8000-0000000000d3', kind: 'accounts', period: 'Year ended 31 Mar 2026', due_on: '2026-12-31' }),
    deadline({ id: '00000000-0000-4000-8000-0000000000d4', kind: 'confirmation_statement', period: '2026', due_on: '2027-03-01' }),
  ],
};
const request = (over: Partial<ClientRequest>): ClientRequest =>
  ({
    id: '00000000-0000-4000-8000-0000000000e1',
    client_id: CLIENT_ID,
    client_name: 'Grace Growth Ltd',
    title: 'October bank statements',
    due_on: '2026-12-10',
    status: 'open',
    deadline_id: null,
    assignee_id: null,
    sent_on: '2026-11-20',
    waiting_days: 6,
    open_items: 1,
    awaiting_review: 0,
    items: [
      {
        id: '00000000-0000-4000-8000-0000000000f1',
        position: 1,
        kind: 'question',
        label: 'Any new loans this year?',
        document_type: null,
        status: 'requested',
        answer: null,
        confirmed: null,
        document_ids: [],
        rejection_reason: null,
        submitted_at: null,
        reviewed_at: null,
      },
    ],
    ...over,
  }) as ClientRequest;
const THREAD: Thread = {
  client_id: CLIENT_ID,
  client_name: 'Grace Growth Ltd',
  unread: 2,
  messages: [
    {
      id: 'm1',
      client_id: CLIENT_ID,
      side: 'practice',
      author_name: 'Margaret Hale',
      body: 'Thanks for the statements.',
      attachments: [],
      created_at: '2026-11-25T10:00:00Z',
    },
  ] as Thread['messages'],
};
const INVOICE: Invoice = {
  id: '00000000-0000-4000-8000-0000000000a1',
  number: 'INV-000001',
  kind: 'invoice',
  issued_at: '2026-11-22T10:00:00Z',
  client_name: 'Grace Growth Ltd',
  email: 'grace@example.co.uk',
  description: 'Growth package, 22 Nov 2026 to 21 Dec 2026',
  net: 100,
  vat_rate: 20,
  vat: 20,
  gross: 120,
  vat_number: 'GB123456789',
};

type Routes = Parameters<typeof mockFetch>[0];
function mockPortal(over: Routes = {}) {
  return mockFetch({
    'GET /api/public/config': () => json(200, PUBLIC_CONFIG),
    'GET /api/identity/auth/me': () => json(200, ME),
    'GET /api/billing/subscription': () => json(200, SUBSCRIBED),
    [`GET ${CRM_ROUTES.myClient}`]: () => json(200, CLIENT),
    'GET /api/requests': (c: Call) =>
      json(200, {
        requests: c.search.includes('status=complete')
          ? [request({ id: '00000000-0000-4000-8000-0000000000e2', title: 'Year-end questions', status: 'complete', open_items: 0 })]
          : [request({})],
      }),
    'GET /api/deadlines/mine': () => json(200, DEADLINES),
    [`GET /api/requests/threads/${CLIENT_ID}`]: () => json(200, THREAD),
    'GET /api/engagement/mine': () => json(200, { clients: [] }),
    'GET /api/billing/invoices': () => json(200, { invoices: [INVOICE] }),
    'GET /api/documents': () => json(200, { documents: [], total: 0, total_exact: true, page: 1, page_size: 20 }),
    'GET /api/documents/summary': () => json(200, { total: 0, active: 0, pending: 0, clients: 0 }),
    'POST /api/identity/auth/logout': () => json(200, { success: true, message: 'Logged out successfully' }),
    ...over,
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const nav = () => screen.findByRole('navigation', { name: 'Client portal' });

describe('the client portal layout', () => {
  it("has the practice's name and its own nav (no marketing menu); the current page is marked", async () => {
    mockPortal();
    renderAt('/portal/deadlines');
    const portalNav = await nav();
    expect(
      within(portalNav)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Home', '/dashboard'],
      ['Documents', '/portal/documents'],
      ['Requests', '/portal/requests'],
      ['Messages', '/portal/messages'],
      ['Deadlines', '/portal/deadlines'],
      ['Billing', '/portal/billing'],
      ['Account', '/portal/account'],
    ]);
    expect(within(portalNav).getByRole('link', { name: 'Deadlines' })).toHaveAttribute('aria-current', 'page');
    expect(within(portalNav).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
    const banner = screen.getByRole('banner');
    expect(await within(banner).findByText('Ledger & Co Accountants')).toBeInTheDocument();
    // not the marketing site's menu
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Who we help' })).not.toBeInTheDocument();
    // the practice's contact details in the footer
    expect(within(screen.getByRole('contentinfo')).getByRole('link', { name: '020 7946 0000' })).toBeInTheDocument();
  });

  it('Home is marked on /dashboard and /client-dashboard; the phone Menu button opens and closes the nav', async () => {
    mockPortal();
    const { router } = renderAt('/client-dashboard');
    const portalNav = await nav();
    expect(within(portalNav).getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    const menu = screen.getByRole('button', { name: /^Menu/ });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(menu).toHaveAttribute('aria-controls', portalNav.id);
    await userEvent.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    expect(portalNav).toHaveClass('is-open');
    // choosing a page closes it
    await userEvent.click(within(portalNav).getByRole('link', { name: 'Billing' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/portal/billing'));
    await waitFor(() => expect(screen.getByRole('button', { name: /^Menu/ })).toHaveAttribute('aria-expanded', 'false'));
  });

  it('sends a signed-out visitor to /login and back afterwards', async () => {
    mockPortal({
      'GET /api/identity/auth/me': () => apiError(401, 'UNAUTHENTICATED', 'no session'),
      'POST /api/identity/auth/refresh': () => apiError(401, 'UNAUTHENTICATED', 'no session'),
    });
    const { router } = renderAt('/portal/billing');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/portal/billing')}`);
  });

  it('an unknown portal address says so and leads Home', async () => {
    mockPortal();
    renderAt('/portal/nowhere');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/dashboard');
  });
});

describe('Home (/dashboard)', () => {
  it('shows what is asked of the client first, their package, the next deadlines with what to do, and unread messages', async () => {
    const { callsTo } = mockPortal();
    renderAt('/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your dashboard' })).toBeInTheDocument();
    const asked = (await screen.findByRole('heading', { name: 'October bank statements' })).closest('.requests-from-you') as HTMLElement;
    expect(within(asked).getByText('Due 10 Dec 2026')).toBeInTheDocument();
    // first on the page
    expect(document.querySelector('.client-page .ant-card')).toBe(asked);
    // the package
    const facts = document.querySelector('dl.client-facts') as HTMLElement;
    expect(within(facts).getByText('Growth')).toBeInTheDocument();
    expect(within(facts).getByText('£100.00/month')).toBeInTheDocument();
    expect(within(facts).getByText('22 Dec 2026')).toBeInTheDocument();
    // the next three open deadlines, soonest first as the API sends them, with the client's part
    const deadlines = (await screen.findByText('Your next deadlines')).closest('.ant-card') as HTMLElement;
    await within(deadlines).findByText('07 Jan 2027: VAT return and payment');
    expect(within(deadlines).getAllByRole('listitem')).toHaveLength(3);
    expect(within(deadlines).getByText(/Send us your records for the quarter, then pay the VAT due by 24 Dec 2026/)).toBeInTheDocument();
    expect(within(deadlines).getByText(/Pay your Corporation Tax to HMRC by 01 Jan 2027/)).toBeInTheDocument();
    expect(within(deadlines).getByText(/Send us your records for the year .* as soon as you can \(due 31 Dec 2026\)/)).toBeInTheDocument();
    expect(within(deadlines).getByRole('link', { name: 'All your deadlines' })).toHaveAttribute('href', '/portal/deadlines');
    // unread messages, read without marking them read
    const messages = (await screen.findByRole('heading', { name: 'Messages' })).closest('.ant-card') as HTMLElement;
    expect(await within(messages).findByText('2 unread messages')).toBeInTheDocument();
    expect(within(messages).getByText(/Thanks for the statements\./)).toBeInTheDocument();
    expect(within(messages).getByRole('link', { name: 'Read and reply' })).toHaveAttribute('href', '/portal/messages');
    expect(callsTo(`GET /api/requests/threads/${CLIENT_ID}`).every((c) => c.search === '?mark_read=false')).toBe(true);
    // moved to their own pages
    expect(screen.queryByText('Your invoices')).not.toBeInTheDocument();
    expect(screen.queryByText('Your documents')).not.toBeInTheDocument();
    expect(screen.queryByText('Change package')).not.toBeInTheDocument();
  });

  it('says so when nothing is asked, no deadline is set and no message is unread', async () => {
    mockPortal({
      'GET /api/requests': () => json(200, { requests: [] }),
      'GET /api/deadlines/mine': () => json(200, { today: '2026-11-26', deadlines: [] }),
      [`GET /api/requests/threads/${CLIENT_ID}`]: () => json(200, { ...THREAD, unread: 0, messages: [] }),
    });
    renderAt('/dashboard');
    expect(await screen.findByText('Nothing is requested from you right now.')).toBeInTheDocument();
    expect(await screen.findByText('No deadlines yet: your accountant will set them up')).toBeInTheDocument();
    expect(await screen.findByText('No unread messages.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open your messages' })).toBeInTheDocument();
  });
});

describe('the portal pages', () => {
  it("Documents: the client's own view with the uploader, no practice figures", async () => {
    mockPortal();
    renderAt('/portal/documents');
    expect(await screen.findByRole('heading', { level: 1, name: 'Documents' })).toBeInTheDocument();
    const card = (await screen.findByText('Your documents')).closest('.ant-card') as HTMLElement;
    await waitFor(() => expect(card.querySelector('.documents-view--client')).not.toBeNull());
    expect(await within(card).findByTestId('documents-drop-zone')).toBeInTheDocument();
    expect(card.querySelectorAll('.ant-statistic')).toHaveLength(0);
  });

  it('Requests: the open ones to answer, and the completed ones', async () => {
    mockPortal();
    renderAt('/portal/requests');
    expect(await screen.findByRole('heading', { level: 1, name: 'Requests' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'October bank statements' })).toBeInTheDocument();
    expect(screen.getByLabelText('Your answer: Any new loans this year?')).toBeInTheDocument();
    const done = (await screen.findByRole('heading', { name: 'Completed requests' })).closest('.ant-card') as HTMLElement;
    expect(await within(done).findByText('Year-end questions')).toBeInTheDocument();
    expect(within(done).getByText('sent 20 Nov 2026, complete')).toBeInTheDocument();
  });

  it('Messages: the thread with the accountant (opening it marks it read)', async () => {
    const { callsTo } = mockPortal();
    renderAt('/portal/messages');
    expect(await screen.findByRole('heading', { level: 1, name: 'Messages' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Messages with your accountant' })).toBeInTheDocument();
    expect(await screen.findByText('Thanks for the statements.')).toBeInTheDocument();
    expect(callsTo(`GET /api/requests/threads/${CLIENT_ID}`).map((c) => c.search)).toEqual(['']);
  });

  it('Deadlines: every deadline with what the client must do and by when', async () => {
    mockPortal();
    renderAt('/portal/deadlines');
    expect(await screen.findByRole('heading', { level: 1, name: 'Deadlines' })).toBeInTheDocument();
    const card = (await screen.findByText('Your deadlines')).closest('.ant-card') as HTMLElement;
    await within(card).findByText('01 Mar 2027: Confirmation statement');
    expect(within(card).getAllByRole('listitem')).toHaveLength(4);
    expect(within(card).getByText(/Tell us of any change to your officers, shareholders or address by 15 Feb 2027/)).toBeInTheDocument();
  });

  it('Deadlines: an error is said, not an empty list', async () => {
    mockPortal({ 'GET /api/deadlines/mine': () => apiError(500, 'INTERNAL', 'down') });
    renderAt('/portal/deadlines');
    expect(await screen.findByText('Your deadlines could not be loaded')).toBeInTheDocument();
  });

  it('Billing: the package and next payment, the VAT invoices as PDFs, and the package change', async () => {
    mockPortal();
    renderAt('/portal/billing');
    expect(await screen.findByRole('heading', { level: 1, name: 'Billing' })).toBeInTheDocument();
    const facts = (await screen.findByText('Your package and next payment')).closest('.ant-card') as HTMLElement;
    expect(within(facts).getByText('Growth')).toBeInTheDocument();
    expect(within(facts).getByText('22 Dec 2026')).toBeInTheDocument();
    const invoices = (await screen.findByText('Your invoices')).closest('.ant-card') as HTMLElement;
    expect(await within(invoices).findByText('£100.00 + £20.00 VAT = £120.00', { exact: false })).toBeInTheDocument();
    expect(within(invoices).getByRole('button', { name: 'PDF of INV-000001' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'New package' })).toBeInTheDocument();
  });

  it('Billing: no invoices yet is said plainly', async () => {
    mockPortal({ 'GET /api/billing/invoices': () => json(200, { invoices: [] }) });
    renderAt('/portal/billing');
    expect(await screen.findByText('No invoices yet: one is made for every payment.')).toBeInTheDocument();
  });

  it('Account: who is signed in, the business profile, password and Account security; Log out ends the session', async () => {
    const { callsTo } = mockPortal();
    const { router } = renderAt('/portal/account');
    expect(await screen.findByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument();
    // (the name is in both cards once both have loaded: look for it in the one that says who is signed in)
    const signedIn = (await screen.findByText('Signed in as')).closest('.ant-card') as HTMLElement;
    expect(await within(signedIn).findByText('Grace Hopper')).toBeInTheDocument();
    const profile = (await screen.findByText('Your business profile')).closest('.ant-card') as HTMLElement;
    expect(await within(profile).findByText('Grace Growth Ltd')).toBeInTheDocument();
    expect(within(profile).getByText('Limited company')).toBeInTheDocument();
    expect(within(profile).getByRole('button', { name: 'Edit business profile' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Change password/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Account security' })).toHaveAttribute('href', '/account/security');
    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(callsTo('POST /api/identity/auth/logout')).toHaveLength(1));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it.each(['/portal/documents', '/portal/requests', '/portal/messages', '/portal/deadlines', '/portal/billing'])(
    '%s without an active package leads to the packages',
    async (path) => {
      const { callsTo } = mockPortal({ 'GET /api/billing/subscription': () => json(200, NOT_SUBSCRIBED) });
      renderAt(path);
      expect(await screen.findByText('You do not have an active package yet.')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Choose a package' })).toHaveAttribute('href', '/package-selection');
      expect(callsTo(`GET ${CRM_ROUTES.myClient}`)).toHaveLength(0);
    },
  );

  it('shows a spinner while the subscription loads', async () => {
    let release: (r: Response) => void = () => {};
    mockPortal({ 'GET /api/billing/subscription': () => new Promise<Response>((r) => (release = r)) });
    renderAt('/portal/billing');
    expect(await screen.findByRole('heading', { level: 1, name: 'Billing' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    release(json(200, SUBSCRIBED));
    expect(await screen.findByText('Your package and next payment')).toBeInTheDocument();
  });
});

describe('what the client must do for a deadline, and by when (decision 641)', () => {
  it.each([
    // kind, due, today, by, late
    ['vat_return', '2027-01-07', '2026-11-26', '2026-12-24', false],
    ['accounts', '2026-12-31', '2026-11-26', '2026-11-26', true],
    ['accounts', '2027-12-31', '2026-11-26', '2027-11-01', false],
    ['sa_online_return', '2027-01-31', '2026-11-26', '2026-12-17', false],
    ['ct_payment', '2027-01-01', '2026-11-26', '2027-01-01', false],
    ['paye_fps', '2026-11-28', '2026-11-26', '2026-11-26', true],
    ['confirmation_statement', '2027-03-01', '2026-11-26', '2027-02-15', false],
  ] as const)('%s due %s, today %s: by %s', (kind, due_on, today, by, late) => {
    const a = clientActionOf({ kind, due_on }, today);
    expect(a.by).toBe(by);
    expect(a.late).toBe(late);
    expect(a.text.length).toBeGreaterThan(10);
  });
});
