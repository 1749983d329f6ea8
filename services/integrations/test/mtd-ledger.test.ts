import { MTD_TEXTS, type MtdLedger } from '@countinghouse/proto';
import { waitFor } from '@countinghouse/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, makePerson, type Person } from '../../../gateway/test/helpers.js';
import { connect, startIntegrationsGateway, upsertClient, type IntegrationsGateway } from './helpers.js';
import { LEDGER, startLocalProviders, type LocalProviders } from './providers.js';

/**
 * Issue 31, item 6: a quarterly update's figures taken from the client's connected Xero or QuickBooks
 * ledger by the category mapping the practice keeps per client. The providers are the local stand-ins
 * answering their documented ProfitAndLoss report shapes (providers.ts).
 */
let providers: LocalProviders;
let gw: IntegrationsGateway;
let staff: Person;
let accountant: Person;
let otherAccountant: Person;
let xeroOwner: Person;
let qbOwner: Person;
let xeroClient: string;
let qbClient: string;
let bareClient: string;

const ledgerUrl = (clientId: string, q = 'taxYear=2026-27&periodEndDate=2026-07-05') =>
  `/api/integrations/mtd/clients/${clientId}/ledger?${q}`;
const pounds = (...xs: number[]) => Math.round(xs.reduce((t, x) => t + x * 100, 0)) / 100;

async function ledger(token: string, clientId: string, q?: string) {
  return gw.inject({ method: 'GET', url: ledgerUrl(clientId, q), headers: bearer(token) });
}

beforeAll(async () => {
  providers = await startLocalProviders();
  gw = await startIntegrationsGateway(providers.env);
  [staff, accountant, otherAccountant, xeroOwner, qbOwner] = await Promise.all([
    makePerson(gw, 'staff@practice.co.uk', ['staff']),
    makePerson(gw, 'accountant@practice.co.uk', ['accountant']),
    makePerson(gw, 'other.accountant@practice.co.uk', ['accountant']),
    makePerson(gw, 'owner@acme-bakery.co.uk', ['client']),
    makePerson(gw, 'owner@brick-lane.co.uk', ['client']),
  ]);
  xeroClient = (await upsertClient(gw, { userId: xeroOwner.id, companyName: 'Acme Bakery Ltd', assignedAccountantId: accountant.id }))
    .clientId;
  qbClient = (await upsertClient(gw, { userId: qbOwner.id, companyName: 'Brick Lane Builders Ltd' })).clientId;
  bareClient = (await upsertClient(gw, { userId: null, companyName: 'No Software Ltd' })).clientId;
  for (const id of [xeroClient, qbClient, bareClient]) {
    await waitFor(
      async () =>
        (await gw.inject({ method: 'GET', url: `/api/integrations/mtd/clients/${id}`, headers: bearer(staff.token) })).statusCode === 200,
      'the client directory',
    );
  }
  expect((await connect(gw, xeroOwner.token, 'xero')).callback.statusCode).toBe(302);
  expect((await connect(gw, qbOwner.token, 'quickbooks')).callback.statusCode).toBe(302);
}, 120_000);

afterAll(async () => {
  await gw?.close();
  await providers?.close();
});

describe('the ledger for a quarterly update', () => {
  it('Xero: every P&L account with its code, income suggested as turnover and costs as other expenses, on the cash basis', async () => {
    const res = await ledger(staff.token, xeroClient);
    expect(res.statusCode, res.body).toBe(200);
    const l = res.json<MtdLedger>();
    expect(l).toMatchObject({
      provider: 'xero',
      organisation: 'Acme Bakery Ltd',
      fromDate: '2026-04-06',
      toDate: '2026-07-05',
      basis: 'cash',
    });
    expect(l.accounts.map((a) => [a.code, a.name, a.kind, a.amount, a.category, a.mapped])).toEqual(
      LEDGER.xero.map((x) => [
        x.code,
        x.name,
        x.cls === 'REVENUE' ? 'income' : 'expense',
        x.cash,
        x.cls === 'REVENUE' ? 'turnover' : 'otherExpenses',
        false,
      ]),
    );
    expect(l.unmapped).toBe(6);
    expect(l.figures).toEqual({
      turnover: pounds(18250.4, 120),
      other: 0,
      expenses: { otherExpenses: pounds(6400.1, 250.35, 3000, 410.2) },
    });
    // The request Xero got: the tax year to date, standard layout, payments only (cash basis).
    const asked = new URL(`http://x${providers.xero.apiPaths.findLast((p) => p.includes('ProfitAndLoss'))}`).searchParams;
    expect(Object.fromEntries(asked)).toEqual({
      fromDate: '2026-04-06',
      toDate: '2026-07-05',
      standardLayout: 'true',
      paymentsOnly: 'true',
    });
  });

  it('accruals when asked', async () => {
    const l = (await ledger(staff.token, xeroClient, 'taxYear=2026-27&periodEndDate=2026-10-05&basis=accruals')).json<MtdLedger>();
    expect(l.basis).toBe('accruals');
    expect(l.toDate).toBe('2026-10-05');
    expect(l.accounts.find((a) => a.code === '200')!.amount).toBe(19000);
  });

  it('the mapping the practice saves is used: categories, other income, an account left out', async () => {
    const l = (await ledger(staff.token, xeroClient)).json<MtdLedger>();
    const key = (code: string) => l.accounts.find((a) => a.code === code)!.key;
    const put = await gw.inject({
      method: 'PUT',
      url: `/api/integrations/mtd/clients/${xeroClient}/ledger/mappings`,
      headers: bearer(accountant.token),
      payload: {
        mappings: [
          { key: key('260'), name: 'Other Revenue', category: 'other' },
          { key: key('310'), name: 'Cost of Goods Sold', category: 'costOfGoods' },
          { key: key('469'), name: 'Rent', category: 'premisesRunningCosts' },
          { key: key('493'), name: 'Travel - National', category: 'carVanTravelExpenses' },
          { key: key('429'), name: 'General Expenses', category: 'exclude' },
        ],
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ ok: true, message: MTD_TEXTS.mappingsSaved });
    const after = (await ledger(accountant.token, xeroClient)).json<MtdLedger>();
    expect(after.unmapped).toBe(1); // Sales: still the suggestion
    expect(after.accounts.find((a) => a.code === '429')).toMatchObject({ category: 'exclude', mapped: true });
    expect(after.figures).toEqual({
      turnover: 18250.4,
      other: 120,
      expenses: { costOfGoods: 6400.1, premisesRunningCosts: 3000, carVanTravelExpenses: 410.2 },
    });
    // A second choice for the same account replaces the first.
    await gw.inject({
      method: 'PUT',
      url: `/api/integrations/mtd/clients/${xeroClient}/ledger/mappings`,
      headers: bearer(staff.token),
      payload: { mappings: [{ key: key('429'), name: 'General Expenses', category: 'adminCosts' }] },
    });
    const again = (await ledger(staff.token, xeroClient)).json<MtdLedger>();
    expect(again.figures.expenses).toEqual({
      costOfGoods: 6400.1,
      premisesRunningCosts: 3000,
      carVanTravelExpenses: 410.2,
      adminCosts: 250.35,
    });
  });

  it('QuickBooks: the income and expense groups, a sub-account inside its parent, no totals; the cash basis asked for', async () => {
    const res = await ledger(staff.token, qbClient, 'taxYear=2026-27&periodEndDate=2026-07-05');
    expect(res.statusCode, res.body).toBe(200);
    const l = res.json<MtdLedger>();
    expect(l.provider).toBe('quickbooks');
    expect(l.accounts.map((a) => [a.key, a.name, a.kind, a.amount])).toEqual(
      LEDGER.quickbooks.map((q) => [`quickbooks:${q.id}`, q.name, q.group === 'Income' ? 'income' : 'expense', q.cash]),
    );
    expect(l.figures).toEqual({ turnover: 14500, other: 0, expenses: { otherExpenses: pounds(4200, 1800, 300.55) } });
    const asked = new URL(`http://x${providers.quickbooks.apiPaths.findLast((p) => p.includes('ProfitAndLoss'))}`).searchParams;
    expect(asked.get('accounting_method')).toBe('Cash');
    expect([asked.get('start_date'), asked.get('end_date')]).toEqual(['2026-04-06', '2026-07-05']);
  });

  it('refuses a period outside the tax year, and a client with no software connected, saying why', async () => {
    const wrong = await ledger(staff.token, xeroClient, 'taxYear=2026-27&periodEndDate=2026-04-05');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toBe(MTD_TEXTS.ledgerPeriod);
    const none = await ledger(staff.token, bareClient);
    expect(none.statusCode).toBe(409);
    expect(none.json().error.message).toBe(MTD_TEXTS.noLedger);
  });

  it('a refused grant asks for the client to connect again (409)', async () => {
    providers.quickbooks.apiFailures.push(401);
    providers.quickbooks.refreshAnswer = 'invalid_grant';
    try {
      const res = await ledger(staff.token, qbClient);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error.message).toBe(MTD_TEXTS.ledgerReconnect('QuickBooks'));
    } finally {
      providers.quickbooks.refreshAnswer = 'ok';
    }
  });

  it('a provider that is down is a 503 to try later', async () => {
    providers.xero.apiFailures.push(503);
    const res = await ledger(staff.token, xeroClient);
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error.message).toBe(MTD_TEXTS.ledgerUnavailable('Xero'));
  });
});

describe('who may read and map a ledger', () => {
  it('an accountant sees only their own clients; a client, not even their own', async () => {
    expect((await ledger(accountant.token, xeroClient)).statusCode).toBe(200);
    expect((await ledger(otherAccountant.token, xeroClient)).statusCode).toBe(403);
    expect((await ledger(xeroOwner.token, xeroClient)).statusCode).toBe(403);
    const map = (token: string) =>
      gw.inject({
        method: 'PUT',
        url: `/api/integrations/mtd/clients/${xeroClient}/ledger/mappings`,
        headers: bearer(token),
        payload: { mappings: [{ key: 'xero:anything', name: 'Sales', category: 'turnover' }] },
      });
    expect((await map(otherAccountant.token)).statusCode).toBe(403);
    expect((await map(xeroOwner.token)).statusCode).toBe(403);
    const { rows } = await gw.kit.runtime.pool.query(
      `select count(*)::int as n from integrations.mtd_ledger_mappings where account_key = 'xero:anything'`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('a category HMRC does not define is refused at the edge', async () => {
    const res = await gw.inject({
      method: 'PUT',
      url: `/api/integrations/mtd/clients/${xeroClient}/ledger/mappings`,
      headers: bearer(staff.token),
      payload: { mappings: [{ key: 'xero:abc', name: 'Sales', category: 'drinks' }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_FAILED');
  });
});
