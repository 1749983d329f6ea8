import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { OAuth2Server } from 'oauth2-mock-server';

/**
 * Local stand-ins for Xero and Intuit: an OAuth 2.0 server per provider (oauth2-mock-server, on the
 * providers' documented paths, with their token answers' extra fields), and one API server answering
 * the documented response shapes (Xero connections, Organisation, Contacts, Invoices; QuickBooks
 * CompanyInfo and the query endpoint). Each provider has a control panel the tests turn.
 */
export interface ProviderControl {
  /** expires_in of the next token answers (seconds). */
  expiresIn: number;
  /** How the next refresh answers: normally, or as a revoked grant. */
  refreshAnswer: 'ok' | 'invalid_grant';
  /** Statuses the next API calls answer with, one per call (then normal service); a 429 may carry Retry-After. */
  apiFailures: Array<number | { status: number; retryAfter?: string }>;
  /** Like the provider's own app-wide limit: at most `calls` API calls per rolling second, else 429 with Retry-After. */
  appLimit: { calls: number; retryAfter: string } | null;
  /** Answers given to calls over appLimit. */
  limited: number;
  /** Xero tenants the API serves (the connections list names the first). */
  tenants: Set<string>;
  tokenRequests: Array<{ grantType: string; authorization: string | undefined; codeVerifier?: string; refreshToken?: string }>;
  revocations: Array<{ authorization: string | undefined; contentType: string | undefined; token?: string }>;
  /** Every access and refresh token the server ever issued. */
  issued: string[];
  /** Access tokens the API accepts now. */
  validAccess: Set<string>;
  /** The one refresh token the token endpoint accepts now (rotation: each refresh replaces it). */
  currentRefresh: string | null;
  /** Access tokens the API saw, in order. */
  apiTokens: string[];
  apiPaths: string[];
}

function control(): ProviderControl {
  return {
    expiresIn: 1800,
    refreshAnswer: 'ok',
    apiFailures: [],
    appLimit: null,
    limited: 0,
    tenants: new Set([XERO_TENANT.tenantId]),
    tokenRequests: [],
    revocations: [],
    issued: [],
    validAccess: new Set(),
    currentRefresh: null,
    apiTokens: [],
    apiPaths: [],
  };
}

export const XERO_TENANT = { id: '7cb59f93-2964-421d-bb5e-a0f7a4572a44', tenantId: 'fe79f7dd-b6d4-4a92-ba7b-538af6289c58' };
export const QB_REALM = '9130347596842385';
/** The auth event of the consent in the tests: the connection carrying it is the organisation to use. */
const XERO_AUTH_EVENT = randomUUID();

/** The figures the fixtures below add up to. */
export const EXPECTED = {
  xero: {
    company: 'Acme Bakery Ltd',
    summary: {
      currency: 'GBP',
      receivables: 1600.75,
      payables: 500,
      overdue_receivables: 1200.5,
      overdue_payables: 450,
      contacts: 3,
      invoices: 3,
      bills: 2,
    },
  },
  quickbooks: {
    company: 'Brick Lane Builders Ltd',
    summary: {
      currency: 'GBP',
      receivables: 1350.15,
      payables: 80,
      overdue_receivables: 1000,
      overdue_payables: 80,
      contacts: 7,
      invoices: 3,
      bills: 1,
    },
  },
};

/**
 * Profit and loss for MTD (issue 31, item 6), in each provider's documented report shape. The cash basis
 * (Xero paymentsOnly=true, QuickBooks accounting_method=Cash) answers the first figure, accruals the second.
 */
export const LEDGER = {
  xero: [
    { id: randomUUID(), code: '200', name: 'Sales', cls: 'REVENUE', section: 'Income', cash: 18250.4, accruals: 19000 },
    { id: randomUUID(), code: '260', name: 'Other Revenue', cls: 'REVENUE', section: 'Income', cash: 120, accruals: 120 },
    {
      id: randomUUID(),
      code: '310',
      name: 'Cost of Goods Sold',
      cls: 'EXPENSE',
      section: 'Less Cost of Sales',
      cash: 6400.1,
      accruals: 6600.1,
    },
    {
      id: randomUUID(),
      code: '429',
      name: 'General Expenses',
      cls: 'EXPENSE',
      section: 'Less Operating Expenses',
      cash: 250.35,
      accruals: 250.35,
    },
    { id: randomUUID(), code: '469', name: 'Rent', cls: 'EXPENSE', section: 'Less Operating Expenses', cash: 3000, accruals: 3000 },
    {
      id: randomUUID(),
      code: '493',
      name: 'Travel - National',
      cls: 'EXPENSE',
      section: 'Less Operating Expenses',
      cash: 410.2,
      accruals: 410.2,
    },
  ],
  quickbooks: [
    { id: '79', name: 'Sales of Product Income', group: 'Income', cash: 12500, accruals: 13100 },
    { id: '45', name: 'Installation', group: 'Income', parent: { id: '1', name: 'Services' }, cash: 2000, accruals: 2000 },
    { id: '80', name: 'Cost of Goods Sold', group: 'COGS', cash: 4200, accruals: 4200 },
    { id: '17', name: 'Rent or Lease', group: 'Expenses', cash: 1800, accruals: 1800 },
    { id: '11', name: 'Insurance', group: 'Expenses', cash: 300.55, accruals: 300.55 },
  ],
};

const money = (n: number) => n.toFixed(2);

/** Xero's ProfitAndLoss (ReportWithRows): sections of account rows with their summary rows, then gross and net profit. */
function xeroProfitAndLoss(basis: 'cash' | 'accruals', to: string) {
  const sections = ['Income', 'Less Cost of Sales', 'Less Operating Expenses'];
  const cell = (id: string, value: string) => ({ Value: value, Attributes: [{ Value: id, Id: 'account' }] });
  const rows: unknown[] = [{ RowType: 'Header', Cells: [{ Value: '' }, { Value: to }] }];
  for (const title of sections) {
    const lines = LEDGER.xero.filter((l) => l.section === title);
    const total = lines.reduce((t, l) => t + l[basis], 0);
    rows.push({
      RowType: 'Section',
      Title: title,
      Rows: [
        ...lines.map((l) => ({ RowType: 'Row', Cells: [cell(l.id, l.name), cell(l.id, money(l[basis]))] })),
        { RowType: 'SummaryRow', Cells: [{ Value: `Total ${title.replace(/^Less /, '')}` }, { Value: money(total) }] },
      ],
    });
    if (title === 'Less Cost of Sales')
      rows.push({ RowType: 'Section', Title: '', Rows: [{ RowType: 'Row', Cells: [{ Value: 'Gross Profit' }, { Value: '0.00' }] }] });
  }
  rows.push({ RowType: 'Section', Title: '', Rows: [{ RowType: 'Row', Cells: [{ Value: 'Net Profit' }, { Value: '0.00' }] }] });
  return { Status: 'OK', Reports: [{ ReportID: 'ProfitAndLoss', ReportName: 'Profit and Loss', ReportType: 'ProfitAndLoss', Rows: rows }] };
}

/** QuickBooks' ProfitAndLoss (Reports API): group sections of Data rows, a sub-account in its parent's section, totals. */
function quickbooksProfitAndLoss(basis: 'cash' | 'accruals', from: string, to: string) {
  const data = (l: (typeof LEDGER.quickbooks)[number]) => ({
    type: 'Data',
    ColData: [{ value: l.name, id: l.id }, { value: money(l[basis]) }],
  });
  const group = (g: string, title: string) => {
    const lines = LEDGER.quickbooks.filter((l) => l.group === g);
    const own = lines.filter((l) => !l.parent).map(data);
    const parents = [...new Map(lines.filter((l) => l.parent).map((l) => [l.parent!.id, l.parent!])).values()];
    const subs = parents.map((p) => ({
      type: 'Section',
      Header: { ColData: [{ value: p.name, id: p.id }, { value: '' }] },
      Rows: { Row: lines.filter((l) => l.parent?.id === p.id).map(data) },
      Summary: { ColData: [{ value: `Total ${p.name}` }, { value: '0.00' }] },
    }));
    return {
      type: 'Section',
      group: g,
      Header: { ColData: [{ value: title }, { value: '' }] },
      Rows: { Row: [...own, ...subs] },
      Summary: { ColData: [{ value: `Total ${title}` }, { value: money(lines.reduce((t, l) => t + l[basis], 0)) }] },
    };
  };
  return {
    Header: {
      ReportName: 'ProfitAndLoss',
      StartPeriod: from,
      EndPeriod: to,
      Currency: 'GBP',
      ReportBasis: basis === 'cash' ? 'Cash' : 'Accrual',
    },
    Columns: {
      Column: [
        { ColTitle: '', ColType: 'Account' },
        { ColTitle: 'Total', ColType: 'Money' },
      ],
    },
    Rows: {
      Row: [
        group('Income', 'Income'),
        group('COGS', 'Cost of Goods Sold'),
        { type: 'Section', group: 'GrossProfit', Summary: { ColData: [{ value: 'Gross Profit' }, { value: '0.00' }] } },
        group('Expenses', 'Expenses'),
        { type: 'Section', group: 'NetOperatingIncome', Summary: { ColData: [{ value: 'Net Operating Income' }, { value: '0.00' }] } },
        { type: 'Section', group: 'NetIncome', Summary: { ColData: [{ value: 'Net Income' }, { value: '0.00' }] } },
      ],
    },
  };
}

const XERO_INVOICES = [
  {
    InvoiceID: randomUUID(),
    Type: 'ACCREC',
    Status: 'AUTHORISED',
    AmountDue: 1200.5,
    CurrencyCode: 'GBP',
    DueDate: '/Date(1579046400000+0000)/',
  },
  {
    InvoiceID: randomUUID(),
    Type: 'ACCREC',
    Status: 'AUTHORISED',
    AmountDue: 300.25,
    CurrencyCode: 'GBP',
    DueDateString: '2099-01-01T00:00:00',
  },
  // USD 130 at 1.3 USD per GBP: £100
  {
    InvoiceID: randomUUID(),
    Type: 'ACCREC',
    Status: 'AUTHORISED',
    AmountDue: 130,
    CurrencyCode: 'USD',
    CurrencyRate: 1.3,
    DueDateString: '2099-02-01T00:00:00',
  },
  {
    InvoiceID: randomUUID(),
    Type: 'ACCPAY',
    Status: 'AUTHORISED',
    AmountDue: 450,
    CurrencyCode: 'GBP',
    DueDateString: '2020-02-01T00:00:00',
  },
  {
    InvoiceID: randomUUID(),
    Type: 'ACCPAY',
    Status: 'AUTHORISED',
    AmountDue: 50,
    CurrencyCode: 'GBP',
    DueDateString: '2099-03-01T00:00:00',
  },
];

const QB_INVOICES = [
  { Id: '130', Balance: 1000, TotalAmt: 1000, DueDate: '2020-03-01', CurrencyRef: { value: 'GBP' } },
  { Id: '131', Balance: 250.1, TotalAmt: 400, DueDate: '2099-01-01', CurrencyRef: { value: 'GBP' } },
  // EUR 115 at 0.87 GBP per EUR: £100.05
  { Id: '132', Balance: 115, TotalAmt: 115, DueDate: '2099-01-01', CurrencyRef: { value: 'EUR' }, ExchangeRate: 0.87 },
];
const QB_BILLS = [{ Id: '77', Balance: 80, TotalAmt: 80, DueDate: '2020-01-01', CurrencyRef: { value: 'GBP' } }];

export interface LocalProviders {
  xero: ProviderControl;
  quickbooks: ProviderControl;
  /** Environment for the integrations service: every provider address points here. */
  env: Record<string, string>;
  close(): Promise<void>;
}

async function oauthServer(
  c: ProviderControl,
  endpoints: { authorize: string; token: string; revoke: string },
  extra: { realmId?: string; authEventId?: string; refreshExpiresIn?: number },
) {
  const server = new OAuth2Server(undefined, undefined, { endpoints });
  await server.issuer.keys.generate('RS256');
  server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    if (extra.authEventId) token.payload.authentication_event_id = extra.authEventId;
  });
  server.service.on('beforeAuthorizeRedirect', (redirect: { url: URL }) => {
    if (extra.realmId) redirect.url.searchParams.set('realmId', extra.realmId);
  });
  server.service.on(
    'beforeResponse',
    (res: { body: Record<string, unknown>; statusCode: number }, req: FastifyRequest['raw'] & { body: Record<string, string> }) => {
      const grantType = req.body.grant_type ?? '';
      c.tokenRequests.push({
        grantType,
        authorization: req.headers.authorization,
        codeVerifier: req.body.code_verifier,
        refreshToken: req.body.refresh_token,
      });
      if (grantType === 'refresh_token' && (c.refreshAnswer === 'invalid_grant' || req.body.refresh_token !== c.currentRefresh)) {
        res.statusCode = 400;
        res.body = { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' };
        return;
      }
      res.body.expires_in = c.expiresIn;
      if (extra.refreshExpiresIn) res.body.x_refresh_token_expires_in = extra.refreshExpiresIn;
      const access = String(res.body.access_token);
      const refresh = String(res.body.refresh_token);
      c.issued.push(access, refresh);
      c.validAccess.add(access);
      c.currentRefresh = refresh;
    },
  );
  server.service.on('beforeRevoke', (_res: unknown, req: FastifyRequest['raw'] & { body?: Record<string, string> }) => {
    c.revocations.push({ authorization: req.headers.authorization, contentType: req.headers['content-type'], token: req.body?.token });
    c.validAccess.clear();
    c.currentRefresh = null;
  });
  await server.start(0, '127.0.0.1');
  return server;
}

function bearerOf(req: FastifyRequest): string {
  const h = req.headers.authorization ?? '';
  return h.startsWith('Bearer ') ? h.slice(7) : '';
}

function apiServer(xero: ProviderControl, qb: ProviderControl): FastifyInstance {
  const app = Fastify({ logger: false });
  // Shared checks: a token the provider issued and has not revoked; a queued failure answers first.
  const recent: Record<string, number[]> = {};
  const gate = (c: ProviderControl) => async (req: FastifyRequest, reply: import('fastify').FastifyReply) => {
    c.apiPaths.push(req.url);
    const token = bearerOf(req);
    c.apiTokens.push(token);
    if (c.appLimit) {
      const key = c === xero ? 'xero' : 'qb';
      const now = Date.now();
      const calls = (recent[key] = (recent[key] ?? []).filter((t) => t > now - 1000));
      if (calls.length >= c.appLimit.calls) {
        c.limited++;
        return reply.status(429).header('retry-after', c.appLimit.retryAfter).send({ Title: 'Too Many Requests' });
      }
      calls.push(now);
    }
    const queued = c.apiFailures.shift();
    const fail = typeof queued === 'number' ? { status: queued } : queued;
    if (fail) {
      if (fail.retryAfter) void reply.header('retry-after', fail.retryAfter);
      return reply.status(fail.status).send(fail.status === 429 ? { Title: 'Too Many Requests' } : { Title: 'Service Unavailable' });
    }
    if (!c.validAccess.has(token)) return reply.status(401).send({ Title: 'Unauthorized', Detail: 'AuthenticationUnsuccessful' });
  };
  const tenant = async (req: FastifyRequest, reply: import('fastify').FastifyReply) => {
    if (!xero.tenants.has(String(req.headers['xero-tenant-id']))) return reply.status(403).send({ Title: 'Forbidden' });
  };

  app.get('/connections', { preHandler: gate(xero) }, async () => [
    {
      id: randomUUID(),
      tenantId: randomUUID(),
      tenantType: 'ORGANISATION',
      tenantName: 'An Older Organisation',
      authEventId: randomUUID(),
      createdDateUtc: '2019-12-07T18:46:19.5165400',
      updatedDateUtc: '2019-12-07T18:46:19.5187840',
    },
    {
      id: XERO_TENANT.id,
      tenantId: XERO_TENANT.tenantId,
      tenantType: 'ORGANISATION',
      tenantName: EXPECTED.xero.company,
      authEventId: XERO_AUTH_EVENT,
      createdDateUtc: '2019-01-07T18:46:19.5165400',
      updatedDateUtc: '2019-01-07T18:46:19.5187840',
    },
  ]);
  app.get('/api.xro/2.0/Organisation', { preHandler: [gate(xero), tenant] }, async () => ({
    Id: randomUUID(),
    Status: 'OK',
    ProviderName: 'Countinghouse',
    Organisations: [{ OrganisationID: XERO_TENANT.tenantId, Name: EXPECTED.xero.company, BaseCurrency: 'GBP', CountryCode: 'GB' }],
  }));
  app.get('/api.xro/2.0/Contacts', { preHandler: [gate(xero), tenant] }, async (req) => {
    const page = Number((req.query as { page?: string }).page ?? 1);
    const contacts = ['Fenwick Flour', 'Hackney Dairy', 'Shoreditch Cafe'].map((Name) => ({
      ContactID: randomUUID(),
      Name,
      ContactStatus: 'ACTIVE',
    }));
    return { Status: 'OK', Contacts: page === 1 ? contacts : [] };
  });
  app.get('/api.xro/2.0/Invoices', { preHandler: [gate(xero), tenant] }, async (req) => {
    const q = req.query as { page?: string; Statuses?: string };
    const page = Number(q.page ?? 1);
    const list = XERO_INVOICES.filter((i) => !q.Statuses || q.Statuses.split(',').includes(i.Status));
    return { Status: 'OK', Invoices: page === 1 ? list : [] };
  });

  app.get('/api.xro/2.0/Accounts', { preHandler: [gate(xero), tenant] }, async () => ({
    Status: 'OK',
    Accounts: [
      ...LEDGER.xero.map((l) => ({ AccountID: l.id, Code: l.code, Name: l.name, Class: l.cls, Status: 'ACTIVE' })),
      { AccountID: randomUUID(), Code: '090', Name: 'Business Bank Account', Class: 'ASSET', Status: 'ACTIVE' },
    ],
  }));
  app.get('/api.xro/2.0/Reports/ProfitAndLoss', { preHandler: [gate(xero), tenant] }, async (req, reply) => {
    const q = req.query as { fromDate?: string; toDate?: string; paymentsOnly?: string };
    if (!q.fromDate || !q.toDate) return reply.status(400).send({ Title: 'Bad Request' });
    return xeroProfitAndLoss(q.paymentsOnly === 'true' ? 'cash' : 'accruals', q.toDate);
  });
  app.get('/v3/company/:realm/reports/ProfitAndLoss', { preHandler: gate(qb) }, async (req, reply) => {
    const { realm } = req.params as { realm: string };
    if (realm !== QB_REALM) return reply.status(403).send({ Fault: { type: 'AUTHENTICATION' } });
    const q = req.query as { start_date?: string; end_date?: string; accounting_method?: string };
    if (!q.start_date || !q.end_date) return reply.status(400).send({ Fault: { type: 'ValidationFault' } });
    return quickbooksProfitAndLoss(q.accounting_method === 'Cash' ? 'cash' : 'accruals', q.start_date, q.end_date);
  });

  app.get('/v3/company/:realm/companyinfo/:id', { preHandler: gate(qb) }, async (req, reply) => {
    const { realm, id } = req.params as { realm: string; id: string };
    if (realm !== QB_REALM || id !== QB_REALM) return reply.status(403).send({ Fault: { type: 'AUTHENTICATION' } });
    return {
      CompanyInfo: { CompanyName: EXPECTED.quickbooks.company, LegalName: `${EXPECTED.quickbooks.company}.`, Country: 'GB', Id: '1' },
      time: new Date().toISOString(),
    };
  });
  app.get('/v3/company/:realm/query', { preHandler: gate(qb) }, async (req, reply) => {
    const { realm } = req.params as { realm: string };
    if (realm !== QB_REALM) return reply.status(403).send({ Fault: { type: 'AUTHENTICATION' } });
    const query = String((req.query as { query?: string }).query ?? '');
    const start = Number(/startposition (\d+)/i.exec(query)?.[1] ?? 1);
    const entity = /from (\w+)/i.exec(query)?.[1];
    const time = new Date().toISOString();
    if (/count\(\*\)/i.test(query) && entity === 'Customer') return { QueryResponse: { totalCount: 7 }, time };
    if (entity === 'Preferences') return { QueryResponse: { Preferences: [{ CurrencyPrefs: { HomeCurrency: { value: 'GBP' } } }] }, time };
    const rows = entity === 'Invoice' ? QB_INVOICES : entity === 'Bill' ? QB_BILLS : [];
    if (start > 1) return { QueryResponse: {}, time };
    return { QueryResponse: { [entity ?? 'Unknown']: rows, startPosition: 1, maxResults: rows.length }, time };
  });
  return app;
}

export async function startLocalProviders(): Promise<LocalProviders> {
  const xero = control();
  const quickbooks = control();
  const xeroAuth = await oauthServer(
    xero,
    { authorize: '/identity/connect/authorize', token: '/connect/token', revoke: '/connect/revocation' },
    { authEventId: XERO_AUTH_EVENT },
  );
  const intuitAuth = await oauthServer(
    quickbooks,
    { authorize: '/connect/oauth2', token: '/oauth2/v1/tokens/bearer', revoke: '/v2/oauth2/tokens/revoke' },
    { realmId: QB_REALM, refreshExpiresIn: 8_726_400 },
  );
  const api = apiServer(xero, quickbooks);
  await api.listen({ port: 0, host: '127.0.0.1' });
  const apiUrl = `http://127.0.0.1:${(api.server.address() as { port: number }).port}`;
  const xeroUrl = `http://127.0.0.1:${xeroAuth.address().port}`;
  const intuitUrl = `http://127.0.0.1:${intuitAuth.address().port}`;
  return {
    xero,
    quickbooks,
    env: {
      XERO_CLIENT_ID: 'xero-test-client',
      XERO_CLIENT_SECRET: 'xero-test-secret',
      XERO_AUTH_URL: `${xeroUrl}/identity/connect/authorize`,
      XERO_TOKEN_URL: `${xeroUrl}/connect/token`,
      XERO_REVOKE_URL: `${xeroUrl}/connect/revocation`,
      XERO_CONNECTIONS_URL: `${apiUrl}/connections`,
      XERO_API_URL: `${apiUrl}/api.xro/2.0`,
      QUICKBOOKS_CLIENT_ID: 'intuit-test-client',
      QUICKBOOKS_CLIENT_SECRET: 'intuit-test-secret',
      QUICKBOOKS_AUTH_URL: `${intuitUrl}/connect/oauth2`,
      QUICKBOOKS_TOKEN_URL: `${intuitUrl}/oauth2/v1/tokens/bearer`,
      QUICKBOOKS_REVOKE_URL: `${intuitUrl}/v2/oauth2/tokens/revoke`,
      QUICKBOOKS_API_URL: apiUrl,
    },
    async close() {
      await Promise.allSettled([xeroAuth.stop(), intuitAuth.stop(), api.close()]);
    },
  };
}
