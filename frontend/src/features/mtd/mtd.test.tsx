import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate, MTD_TEXTS, type MtdClient, type MtdOverview } from '@countinghouse/proto';
import { json, mockFetch } from '../../test/fetch-mock';
import { renderAt } from '../../test/render';
import { ClientMtdTab } from './ClientMtdTab';
import { endedTaxYears } from './FinalDeclaration';
import { MtdPage } from './MtdPage';

const CLIENT = 'c1a2b3c4-0000-4000-8000-000000000001';
const RECORD: MtdClient = {
  clientId: CLIENT,
  companyName: 'Jo Sole Trader',
  nino: 'TC663795B',
  postcode: 'TF3 4NT',
  incomes: [{ taxYear: '2025-26', amount: 31000, recordedAt: '2026-11-20T10:00:00.000Z' }],
  scope: {
    mandatedFrom: 'april_2027',
    mandatedFromDate: '2027-04-06',
    letter: 'Your qualifying income for 2025-26 was £31,000, over the £30,000 threshold',
    exemptionReason: null,
    reason: 'Qualifying income £31,000 in 2025-26 is over £30,000',
  },
  authorisation: {
    id: 'a1a2b3c4-0000-4000-8000-000000000001',
    clientId: CLIENT,
    agentType: 'main',
    invitationId: 'CS5AK7O8FPC43',
    status: 'Accepted',
    clientActionUrl: null,
    expiresOn: '2026-12-17',
    requestedAt: '2026-11-26T10:00:00.000Z',
    checkedAt: null,
  },
  businesses: [{ businessId: 'XAIS12345678910', typeOfBusiness: 'self-employment', tradingName: 'RCDTS' }],
  obligations: [
    {
      kind: 'quarterly',
      businessId: 'XAIS12345678910',
      typeOfBusiness: 'self-employment',
      periodStartDate: '2026-04-06',
      periodEndDate: '2026-07-05',
      dueDate: '2026-08-07',
      status: 'fulfilled',
      receivedDate: '2026-08-01',
      overdue: false,
    },
    {
      kind: 'quarterly',
      businessId: 'XAIS12345678910',
      typeOfBusiness: 'self-employment',
      periodStartDate: '2026-04-06',
      periodEndDate: '2026-10-05',
      dueDate: '2026-11-07',
      status: 'open',
      receivedDate: null,
      overdue: true,
    },
  ],
  obligationsRefreshedAt: '2026-11-26T10:00:00.000Z',
  submissions: [],
  finalDeclarations: [],
};

afterEach(() => vi.unstubAllGlobals());

describe('a client’s MTD section', () => {
  it('shows scope, the authorisation, obligations done/overdue, and sends an update only after review and confirmation', async () => {
    const m = mockFetch({
      [`GET /api/integrations/mtd/clients/${CLIENT}`]: () => json(200, RECORD),
      [`POST /api/integrations/mtd/clients/${CLIENT}/updates/review`]: () =>
        json(200, {
          body: { periodDates: { periodStartDate: '2026-04-06', periodEndDate: '2026-07-05' } },
          path: '/x',
          reviewHash: 'hash-123456789',
        }),
      [`POST /api/integrations/mtd/clients/${CLIENT}/updates`]: () =>
        json(201, {
          id: 's1',
          businessId: 'XAIS12345678910',
          taxYear: '2026-27',
          periodStartDate: '2026-04-06',
          periodEndDate: '2026-07-05',
          hmrcStatus: 204,
          correlationId: null,
          submittedAt: '2026-11-26T10:00:00.000Z',
          submittedBy: 'u1',
          calculationId: 'f2fb30e5',
        }),
    });
    renderAt('/', { routes: [{ path: '/', element: <ClientMtdTab clientId={CLIENT} realm="user" /> }] });
    expect(await screen.findByText('From 6 April 2027')).toBeInTheDocument();
    expect(screen.getByText('Accepted')).toBeInTheDocument();
    expect(screen.getByText(`Done ${formatDate('2026-08-01')}`)).toBeInTheDocument();
    expect(screen.getByText('Overdue')).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Quarterly update figures' });
    await userEvent.type(within(form).getByLabelText('Turnover (£, year to date)'), '41250.5');
    await userEvent.click(screen.getByRole('button', { name: 'Review what will be sent' }));
    const review = await screen.findByLabelText('Update to send');
    expect(review.textContent).toContain('"periodEndDate": "2026-07-05"');
    const send = screen.getByRole('button', { name: 'Send to HMRC' });
    expect(send).toBeDisabled();
    expect(m.callsTo(`POST /api/integrations/mtd/clients/${CLIENT}/updates`)).toHaveLength(0);
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(send);
    await waitFor(() => expect(m.callsTo(`POST /api/integrations/mtd/clients/${CLIENT}/updates`)).toHaveLength(1));
    const body = m.callsTo(`POST /api/integrations/mtd/clients/${CLIENT}/updates`)[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ confirmed: true, reviewHash: 'hash-123456789', turnover: 41250.5, taxYear: '2026-27' });
    expect((body.device as { deviceId: string }).deviceId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('a landlord’s UK property update (Property Business 6.0)', () => {
  it('shows the property fields for a property business, reviews and sends them to the property routes', async () => {
    const landlord: MtdClient = {
      ...RECORD,
      businesses: [{ businessId: 'XPIS12345678901', typeOfBusiness: 'uk-property', tradingName: null }],
    };
    const m = mockFetch({
      [`GET /api/integrations/mtd/clients/${CLIENT}`]: () => json(200, landlord),
      [`POST /api/integrations/mtd/clients/${CLIENT}/property-updates/review`]: () =>
        json(200, { body: { fromDate: '2026-04-06', toDate: '2026-07-05' }, path: '/x', reviewHash: 'hash-property-1' }),
      [`POST /api/integrations/mtd/clients/${CLIENT}/property-updates`]: () =>
        json(201, {
          id: 's2',
          businessId: 'XPIS12345678901',
          taxYear: '2026-27',
          periodStartDate: '2026-04-06',
          periodEndDate: '2026-07-05',
          hmrcStatus: 204,
          correlationId: null,
          submittedAt: '2026-11-26T10:00:00.000Z',
          submittedBy: 'u1',
          calculationId: null,
        }),
    });
    renderAt('/', { routes: [{ path: '/', element: <ClientMtdTab clientId={CLIENT} realm="user" /> }] });
    const form = await screen.findByRole('form', { name: 'Quarterly update figures' });
    // no self-employment fields, and no ledger panel (its categories are the self-employed's)
    expect(within(form).queryByLabelText('Turnover (£, year to date)')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Take figures from Xero or QuickBooks' })).not.toBeInTheDocument();
    await userEvent.type(within(form).getByLabelText('Rents and other property income'), '14400');
    await userEvent.type(within(form).getByLabelText('Residential finance costs (mortgage interest)'), '2100');
    await userEvent.click(screen.getByRole('button', { name: 'Review what will be sent' }));
    await screen.findByLabelText('Update to send');
    expect(m.callsTo(`POST /api/integrations/mtd/clients/${CLIENT}/property-updates/review`)[0]!.body).toMatchObject({
      businessId: 'XPIS12345678901',
      income: { periodAmount: 14400 },
      expenses: { residentialFinancialCost: 2100 },
    });
    await userEvent.click(screen.getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Send to HMRC' }));
    await waitFor(() => expect(m.callsTo(`POST /api/integrations/mtd/clients/${CLIENT}/property-updates`)).toHaveLength(1));
    expect(m.callsTo(`POST /api/integrations/mtd/clients/${CLIENT}/property-updates`)[0]!.body).toMatchObject({
      confirmed: true,
      reviewHash: 'hash-property-1',
      income: { periodAmount: 14400 },
    });
    expect(m.callsTo(`POST /api/integrations/mtd/clients/${CLIENT}/updates`)).toHaveLength(0);
  });
});

describe('figures from the client’s Xero or QuickBooks (issue 31, item 6)', () => {
  it('reads the ledger for the period, saves the mapping, and fills the update form with its figures', async () => {
    const account = (
      key: string,
      code: string,
      name: string,
      kind: 'income' | 'expense',
      amount: number,
      category: string,
      mapped: boolean,
    ) => ({
      key,
      code,
      name,
      kind,
      amount,
      category,
      mapped,
    });
    let saved = false;
    const ledger = () =>
      json(200, {
        provider: 'xero',
        organisation: 'Jo Sole Trader',
        fromDate: '2026-04-06',
        toDate: '2026-07-05',
        basis: 'cash',
        accounts: [
          account('xero:a', '200', 'Sales', 'income', 18250.4, 'turnover', saved),
          account('xero:b', '469', 'Rent', 'expense', 3000, saved ? 'premisesRunningCosts' : 'otherExpenses', saved),
        ],
        figures: saved
          ? { turnover: 18250.4, other: 0, expenses: { premisesRunningCosts: 3000 } }
          : { turnover: 18250.4, other: 0, expenses: { otherExpenses: 3000 } },
        unmapped: saved ? 0 : 2,
      });
    const m = mockFetch({
      [`GET /api/integrations/mtd/clients/${CLIENT}`]: () => json(200, RECORD),
      [`GET /api/integrations/mtd/clients/${CLIENT}/ledger`]: ledger,
      [`PUT /api/integrations/mtd/clients/${CLIENT}/ledger/mappings`]: () => {
        saved = true;
        return json(200, { ok: true, message: 'Category mapping saved' });
      },
    });
    renderAt('/', { routes: [{ path: '/', element: <ClientMtdTab clientId={CLIENT} realm="user" /> }] });
    await userEvent.click(await screen.findByRole('button', { name: 'Take figures from Xero or QuickBooks' }));
    const table = await screen.findByRole('table', { name: 'Accounts and where each goes' });
    expect(within(table).getByText('£18,250.40')).toBeInTheDocument();
    expect(within(table).getAllByText('Suggested')).toHaveLength(2);
    expect(m.callsTo(`GET /api/integrations/mtd/clients/${CLIENT}/ledger`)[0]!.search).toBe(
      '?taxYear=2026-27&periodEndDate=2026-07-05&basis=cash',
    );
    // Rent to premises running costs: the figures come after saving.
    await userEvent.click(screen.getByRole('combobox', { name: 'Category for Rent' }));
    await userEvent.click(await screen.findByTitle('Premises running costs'));
    expect(screen.getByRole('button', { name: 'Use these figures' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Save mapping' }));
    await waitFor(() => expect(m.callsTo(`PUT /api/integrations/mtd/clients/${CLIENT}/ledger/mappings`)).toHaveLength(1));
    expect(m.callsTo(`PUT /api/integrations/mtd/clients/${CLIENT}/ledger/mappings`)[0]!.body).toEqual({
      mappings: [
        { key: 'xero:a', name: 'Sales', category: 'turnover' },
        { key: 'xero:b', name: 'Rent', category: 'premisesRunningCosts' },
      ],
    });
    await waitFor(() => expect(screen.queryAllByText('Suggested')).toHaveLength(0));
    await userEvent.click(screen.getByRole('button', { name: 'Use these figures' }));
    const form = screen.getByRole('form', { name: 'Quarterly update figures' });
    expect(within(form).getByLabelText('Turnover (£, year to date)')).toHaveValue('18250.40');
    expect(within(form).getByLabelText('Premises running costs (£)')).toHaveValue('3000.00');
    expect(within(form).getByLabelText('Other expenses (£)')).toHaveValue('');
  });

  it('says why when the client has no software connected', async () => {
    mockFetch({
      [`GET /api/integrations/mtd/clients/${CLIENT}`]: () => json(200, RECORD),
      [`GET /api/integrations/mtd/clients/${CLIENT}/ledger`]: () =>
        json(409, {
          error: {
            code: 'CONFLICT',
            message: 'This client has no Xero or QuickBooks connected. Enter the figures, or ask the client to connect their software.',
          },
        }),
    });
    renderAt('/', { routes: [{ path: '/', element: <ClientMtdTab clientId={CLIENT} realm="user" /> }] });
    await userEvent.click(await screen.findByRole('button', { name: 'Take figures from Xero or QuickBooks' }));
    expect(await screen.findByText(/has no Xero or QuickBooks connected/)).toBeInTheDocument();
  });
});

describe('a pending authorisation', () => {
  it('shows the expiry and sends the client’s action link in their secure messages', async () => {
    const pending: MtdClient = {
      ...RECORD,
      authorisation: {
        ...RECORD.authorisation!,
        status: 'Pending',
        clientActionUrl: 'https://www.tax.service.gov.uk/agent-client-relationships/x',
      },
    };
    const m = mockFetch({
      [`GET /api/integrations/mtd/clients/${CLIENT}`]: () => json(200, pending),
      [`POST /api/requests/threads/${CLIENT}/messages`]: () => json(201, {}),
    });
    renderAt('/', { routes: [{ path: '/', element: <ClientMtdTab clientId={CLIENT} realm="user" /> }] });
    expect(await screen.findByText('Pending')).toBeInTheDocument();
    expect(screen.getByText(formatDate('2026-12-17'))).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: "Send it in the client's messages" }));
    await waitFor(() => expect(m.callsTo(`POST /api/requests/threads/${CLIENT}/messages`)).toHaveLength(1));
    const body = m.callsTo(`POST /api/requests/threads/${CLIENT}/messages`)[0]!.body as { body: string };
    expect(body.body).toContain('https://www.tax.service.gov.uk/agent-client-relationships/x');
    expect(body.body).toContain(formatDate('2026-12-17'));
  });
});

describe('the MTD page', () => {
  it('lists clients by scope and obligations by status', async () => {
    const overview: MtdOverview = {
      clients: [
        {
          clientId: CLIENT,
          companyName: 'Jo Sole Trader',
          authorisationStatus: 'Pending',
          expiresOn: '2026-12-17',
          mandatedFrom: 'april_2027',
          exemptionReason: null,
          due: 0,
          overdue: 1,
          fulfilled: 1,
        },
        {
          clientId: 'c2',
          companyName: 'Landlord Ltd',
          authorisationStatus: null,
          expiresOn: null,
          mandatedFrom: 'april_2028',
          exemptionReason: null,
          due: 0,
          overdue: 0,
          fulfilled: 0,
        },
      ],
      scope: { now: [], april2027: [CLIENT], april2028: ['c2'] },
      obligations: RECORD.obligations.map((o) => ({
        ...o,
        clientId: CLIENT,
        companyName: 'Jo Sole Trader',
        quarter: o.periodEndDate === '2026-07-05' ? 'Q1 2026-27' : 'Q2 2026-27',
      })),
    };
    const m = mockFetch({
      'GET /api/integrations/mtd/overview': () => json(200, overview),
      'GET /api/integrations/mtd/connection': () =>
        json(200, { configured: true, connected: false, needsReconnect: true, arn: 'AARN9999999', connectedAt: null }),
    });
    renderAt('/work/mtd', { routes: [{ path: '/work/mtd', element: <MtdPage /> }] });
    expect(await screen.findByText(`Pending until ${formatDate('2026-12-17')}`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reconnect to HMRC' })).toBeInTheDocument();
    await userEvent.click(screen.getByText('April 2028 (1)'));
    await waitFor(() => expect(screen.queryByText(`Pending until ${formatDate('2026-12-17')}`)).not.toBeInTheDocument());
    expect(screen.getAllByText('Landlord Ltd').length).toBeGreaterThan(0);
    // obligations: Due shows none; Overdue shows Q2; Fulfilled shows Q1
    await userEvent.click(screen.getByText('Overdue', { selector: '.ant-segmented-item-label' }));
    expect(await screen.findByText('Q2 2026-27')).toBeInTheDocument();
    await userEvent.click(screen.getByText('Fulfilled', { selector: '.ant-segmented-item-label' }));
    expect(await screen.findByText('Q1 2026-27')).toBeInTheDocument();
    // needing a reconnection, the page asks HMRC for nothing
    expect(m.callsTo('POST /api/integrations/mtd/obligations/refresh-due')).toHaveLength(0);
  });

  it("connected, it reads the day's obligations from HMRC in rounds, saying how far it has got (issue 31, item 5)", async () => {
    const rounds = [
      { refreshed: 5, failed: 0, remaining: 3 },
      { refreshed: 2, failed: 1, remaining: 0 },
    ];
    const m = mockFetch({
      'GET /api/integrations/mtd/overview': () =>
        json(200, { clients: [], scope: { now: [], april2027: [], april2028: [] }, obligations: [] }),
      'GET /api/integrations/mtd/connection': () =>
        json(200, {
          configured: true,
          connected: true,
          needsReconnect: false,
          arn: 'AARN9999999',
          connectedAt: '2026-11-01T09:00:00.000Z',
        }),
      'POST /api/integrations/mtd/obligations/refresh-due': () => json(200, rounds.shift() ?? { refreshed: 0, failed: 0, remaining: 0 }),
    });
    renderAt('/work/mtd', { routes: [{ path: '/work/mtd', element: <MtdPage /> }] });
    expect(
      await screen.findByText('Obligations read from HMRC today for 7 clients; HMRC refused 1 client (open their record to see why).'),
    ).toBeInTheDocument();
    const calls = m.callsTo('POST /api/integrations/mtd/obligations/refresh-due');
    expect(calls).toHaveLength(2);
    expect((calls[0]!.body as { device: { deviceId: string } }).device.deviceId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('the final declaration (Individual Calculations 9.0)', () => {
  it.each([
    ['2026-04-05', []], // 2025-26 has not ended yet
    ['2026-04-06', ['2025-26']],
    ['2026-11-27', ['2025-26']],
    ['2027-04-06', ['2026-27', '2025-26']],
  ])('on %s the years that can be finalised are %j', (today, years) => {
    expect(endedTaxYears(today)).toEqual(years);
  });

  it('calculates, shows the calculation, and sends only once HMRC’s declaration is confirmed', async () => {
    const m = mockFetch({
      [`GET /api/integrations/mtd/clients/${CLIENT}`]: () => json(200, RECORD),
      [`POST /api/integrations/mtd/clients/${CLIENT}/final-declaration/calculation`]: () => json(201, { calculationId: 'calc-final-1' }),
      [`POST /api/integrations/mtd/clients/${CLIENT}/calculations/calc-final-1`]: () =>
        json(200, {
          calculationId: 'calc-final-1',
          taxYear: '2025-26',
          calculationTimestamp: '2026-11-27T10:00:00.000Z',
          totalIncomeReceived: 41250.5,
          totalTaxableIncome: 28680.5,
          totalIncomeTaxAndNicsDue: 6542.1,
        }),
      [`POST /api/integrations/mtd/clients/${CLIENT}/final-declaration`]: () =>
        json(201, {
          id: 'fd1',
          taxYear: '2025-26',
          calculationId: 'calc-final-1',
          hmrcStatus: 204,
          correlationId: null,
          submittedAt: '2026-11-27T10:01:00.000Z',
          submittedBy: 'u1',
        }),
    });
    renderAt('/', { routes: [{ path: '/', element: <ClientMtdTab clientId={CLIENT} realm="user" canSubmit /> }] });
    await userEvent.click(await screen.findByRole('button', { name: 'Calculate final figures' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Show calculation' }));
    expect(await screen.findByText('£6,542.10')).toBeInTheDocument();
    const send = screen.getByRole('button', { name: 'Submit final declaration' });
    expect(send).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: MTD_TEXTS.finalDeclarationStatement }));
    await userEvent.click(send);
    await waitFor(() => expect(m.callsTo(`POST /api/integrations/mtd/clients/${CLIENT}/final-declaration`)).toHaveLength(1));
    expect(m.callsTo(`POST /api/integrations/mtd/clients/${CLIENT}/final-declaration`)[0]!.body).toMatchObject({
      taxYear: expect.stringMatching(/^20\d\d-\d\d$/),
      calculationId: 'calc-final-1',
      confirmed: true,
    });
  });

  it('without the permission to send, only the receipts', async () => {
    mockFetch({ [`GET /api/integrations/mtd/clients/${CLIENT}`]: () => json(200, RECORD) });
    renderAt('/', { routes: [{ path: '/', element: <ClientMtdTab clientId={CLIENT} realm="user" /> }] });
    expect(await screen.findByText('No final declaration has been sent for this client.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Calculate final figures' })).not.toBeInTheDocument();
  });
});
