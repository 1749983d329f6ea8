import type { ProviderSettings } from '../config.js';
import { dayOf, summarise, toBase, ukDay, type OpenItem } from '../domain/summary.js';
import type { AdapterHooks, ConnectedOrganisation, LedgerLine, ProviderAdapter, SyncResult } from './adapter.js';
import { providerCall, ProviderError } from './http.js';

interface QbDocument {
  Balance?: number;
  DueDate?: string;
  CurrencyRef?: { value?: string };
  ExchangeRate?: number;
}

interface QbReportRow {
  type?: string;
  group?: string;
  ColData?: Array<{ value?: string; id?: string }>;
  Header?: { ColData?: Array<{ value?: string; id?: string }> };
  Rows?: { Row?: QbReportRow[] };
  /** A section's total: never an account's own figure. */
  Summary?: { ColData?: Array<{ value?: string }> };
}

/** QuickBooks' ProfitAndLoss groups: what the report's sections hold. Totals (GrossProfit, NetIncome) hold no accounts. */
const QB_INCOME_GROUPS = new Set(['Income', 'OtherIncome']);
const QB_EXPENSE_GROUPS = new Set(['COGS', 'Expenses', 'OtherExpenses']);

/**
 * The account lines of QuickBooks' ProfitAndLoss report (Reports API, one Total column): the Data rows
 * (ColData [account name with its id, amount]) of the income and expense groups, sub-accounts' sections
 * included (they carry no group of their own and take their parent's).
 */
export function quickbooksLedgerLines(report: { Rows?: { Row?: QbReportRow[] } }): LedgerLine[] {
  if (!report.Rows) throw new ProviderError('quickbooks', 'bad_response', 'profit and loss');
  const lines: LedgerLine[] = [];
  const visit = (rows: QbReportRow[] | undefined, group: string) => {
    for (const row of rows ?? []) {
      const g = row.group && (QB_INCOME_GROUPS.has(row.group) || QB_EXPENSE_GROUPS.has(row.group)) ? row.group : group;
      if (row.Rows?.Row) visit(row.Rows.Row, g);
      if (row.type === 'Section' || !row.ColData) continue;
      const [label, value] = row.ColData;
      if (!label?.id || !(QB_INCOME_GROUPS.has(g) || QB_EXPENSE_GROUPS.has(g))) continue;
      const amount = value?.value ? Number(value.value) : 0;
      if (!Number.isFinite(amount)) throw new ProviderError('quickbooks', 'bad_response', 'profit and loss');
      lines.push({ id: label.id, code: null, name: label.value || label.id, kind: QB_INCOME_GROUPS.has(g) ? 'income' : 'expense', amount });
    }
  };
  visit(report.Rows.Row, '');
  return lines;
}

/** QuickBooks' query endpoint returns at most 1000 rows a call. */
export const QB_PAGE_SIZE = 1000;
const MAX_PAGES = 200;
const REALM = /^[0-9A-Za-z-]{1,64}$/;

export function quickbooksAdapter(settings: ProviderSettings, hooks: Pick<AdapterHooks, 'now'>): ProviderAdapter {
  const company = (realmId: string) => `${settings.apiUrl}/v3/company/${encodeURIComponent(realmId)}`;
  const get = <T>(step: string, url: string, accessToken: string) =>
    providerCall<T>({
      provider: 'quickbooks',
      step,
      url,
      headers: { authorization: `Bearer ${accessToken}` },
      now: hooks.now,
      timeoutMs: settings.timeoutMs,
    });
  /** A query's answer: QueryResponse holds what `R` declares (the entity's list, totalCount, Preferences). */
  const query = <R>(step: string, realmId: string, q: string, accessToken: string) =>
    get<{ QueryResponse?: R }>(
      step,
      `${company(realmId)}/query?query=${encodeURIComponent(q)}&minorversion=${encodeURIComponent(settings.minorVersion)}`,
      accessToken,
    );

  async function companyName(accessToken: string, realmId: string): Promise<string | null> {
    const body = await get<{ CompanyInfo?: { CompanyName?: string; LegalName?: string } }>(
      'company info',
      `${company(realmId)}/companyinfo/${encodeURIComponent(realmId)}?minorversion=${encodeURIComponent(settings.minorVersion)}`,
      accessToken,
    );
    if (!body.CompanyInfo) throw new ProviderError('quickbooks', 'bad_response', 'company info');
    return body.CompanyInfo.CompanyName || body.CompanyInfo.LegalName || null;
  }

  /** Every open document of an entity (Balance > 0), page by page. */
  async function open(entity: 'Invoice' | 'Bill', accessToken: string, realmId: string): Promise<QbDocument[]> {
    const all: QbDocument[] = [];
    for (let page = 0; page < MAX_PAGES; page++) {
      const start = page * QB_PAGE_SIZE + 1;
      const body = await query<Partial<Record<typeof entity, QbDocument[]>>>(
        entity.toLowerCase(),
        realmId,
        `select * from ${entity} where Balance > '0' startposition ${start} maxresults ${QB_PAGE_SIZE}`,
        accessToken,
      );
      if (!body.QueryResponse) throw new ProviderError('quickbooks', 'bad_response', entity.toLowerCase());
      const list = body.QueryResponse[entity] ?? [];
      all.push(...list);
      if (list.length < QB_PAGE_SIZE) break;
    }
    return all;
  }

  return {
    provider: 'quickbooks',
    settings,
    async organisation(accessToken, callback): Promise<ConnectedOrganisation> {
      const realmId = callback.realmId;
      if (!realmId || !REALM.test(realmId)) throw new ProviderError('quickbooks', 'refused', 'callback (no realmId)');
      return { externalId: realmId, connectionId: null, companyName: await companyName(accessToken, realmId) };
    },
    async summarise(accessToken, realmId, progress): Promise<SyncResult> {
      const name = await companyName(accessToken, realmId);
      const prefs = await query<{ Preferences?: Array<{ CurrencyPrefs?: { HomeCurrency?: { value?: string } } }> }>(
        'preferences',
        realmId,
        'select * from Preferences',
        accessToken,
      );
      const prefList = prefs.QueryResponse?.Preferences;
      const currency = prefList?.[0]?.CurrencyPrefs?.HomeCurrency?.value || 'GBP';
      await progress(20);
      const customers = await query<{ totalCount?: unknown }>('customers', realmId, 'select count(*) from Customer', accessToken);
      const contacts = Number(customers.QueryResponse?.totalCount ?? 0);
      await progress(40);
      const invoices = await open('Invoice', accessToken, realmId);
      await progress(65);
      const bills = await open('Bill', accessToken, realmId);
      await progress(85);
      const item =
        (kind: OpenItem['kind']) =>
        (d: QbDocument): OpenItem => {
          const balance = Number(d.Balance ?? 0);
          const sameCurrency = !d.CurrencyRef?.value || d.CurrencyRef.value === currency;
          return { kind, amountDue: sameCurrency ? balance : toBase(balance, d.ExchangeRate, 'multiply'), dueDate: dayOf(d.DueDate) };
        };
      return {
        companyName: name,
        summary: summarise({
          currency,
          items: [...invoices.map(item('receivable')), ...bills.map(item('payable'))],
          contacts: Number.isFinite(contacts) ? contacts : 0,
          invoices: invoices.length,
          bills: bills.length,
          today: ukDay(),
        }),
      };
    },
    async ledger(accessToken, realmId, { from, to, basis }) {
      const q = new URLSearchParams({
        start_date: from,
        end_date: to,
        accounting_method: basis === 'cash' ? 'Cash' : 'Accrual',
        summarize_column_by: 'Total',
        minorversion: settings.minorVersion,
      });
      const report = await get<{ Rows?: { Row?: QbReportRow[] } }>(
        'profit and loss',
        `${company(realmId)}/reports/ProfitAndLoss?${q.toString()}`,
        accessToken,
      );
      return quickbooksLedgerLines(report);
    },
  };
}
