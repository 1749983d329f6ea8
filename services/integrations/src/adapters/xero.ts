import type { ProviderSettings } from '../config.js';
import { dayOf, summarise, toBase, ukDay, type OpenItem } from '../domain/summary.js';
import type { AdapterHooks, ConnectedOrganisation, LedgerLine, ProviderAdapter, SyncResult } from './adapter.js';
import { fieldOf, providerCall, ProviderError } from './http.js';

interface XeroConnection {
  id?: string;
  tenantId?: string;
  tenantType?: string;
  tenantName?: string;
  authEventId?: string;
  updatedDateUtc?: string;
}

interface XeroInvoice {
  Type?: string;
  Status?: string;
  AmountDue?: number;
  CurrencyCode?: string;
  CurrencyRate?: number;
  DueDate?: string;
  DueDateString?: string;
}

interface XeroAccount {
  AccountID?: string;
  Code?: string;
  Name?: string;
  /** ASSET, EQUITY, EXPENSE, LIABILITY, REVENUE */
  Class?: string;
}

interface XeroReportCell {
  Value?: string;
  Attributes?: Array<{ Id?: string; Value?: string }>;
}
interface XeroReportRow {
  RowType?: string;
  Title?: string;
  Cells?: XeroReportCell[];
  Rows?: XeroReportRow[];
}

/**
 * The account lines of Xero's ProfitAndLoss report (ReportWithRows): the Row entries of each Section
 * whose first cell names an account (Attributes Id 'account'); totals, gross and net profit name none.
 * The account's class says income or expense; without it, the section ("Less ..." sections are costs).
 */
export function xeroLedgerLines(report: { Reports?: Array<{ Rows?: XeroReportRow[] }> }, accounts: XeroAccount[]): LedgerLine[] {
  const byId = new Map(accounts.filter((a) => a.AccountID).map((a) => [a.AccountID!, a]));
  const lines: LedgerLine[] = [];
  const visit = (rows: XeroReportRow[] | undefined, section: string) => {
    for (const row of rows ?? []) {
      if (row.RowType === 'Section') {
        visit(row.Rows, row.Title ?? section);
        continue;
      }
      if (row.RowType !== 'Row') continue;
      const [label, value] = row.Cells ?? [];
      const id = label?.Attributes?.find((a) => a.Id === 'account')?.Value;
      if (!id) continue;
      const amount = Number(String(value?.Value ?? '0').replace(/,/g, ''));
      if (!Number.isFinite(amount)) throw new ProviderError('xero', 'bad_response', 'profit and loss');
      const account = byId.get(id);
      const kind =
        account?.Class === 'REVENUE'
          ? 'income'
          : account?.Class === 'EXPENSE'
            ? 'expense'
            : /^less\b/i.test(section)
              ? 'expense'
              : 'income';
      lines.push({ id, code: account?.Code || null, name: account?.Name || label?.Value || id, kind, amount });
    }
  };
  const first = report.Reports?.[0];
  if (!first) throw new ProviderError('xero', 'bad_response', 'profit and loss');
  visit(first.Rows, '');
  return lines;
}

/** Xero's Accounting API pages hold up to this many records. */
export const XERO_PAGE_SIZE = 1000;
const MAX_PAGES = 200;

/** The authentication_event_id claim of Xero's access token (a JWT from the token endpoint), if any. */
function authEventOf(accessToken: string): string | null {
  try {
    const payload: unknown = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8'));
    const id = fieldOf(payload, 'authentication_event_id');
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

export function xeroAdapter(settings: ProviderSettings, hooks: AdapterHooks): ProviderAdapter {
  const auth = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });
  const api = <T>(step: string, path: string, accessToken: string, tenantId: string) =>
    providerCall<T>({
      provider: 'xero',
      step,
      url: `${settings.apiUrl}${path}`,
      headers: { ...auth(accessToken), 'xero-tenant-id': tenantId },
      beforeCall: () => hooks.beforeCall(tenantId),
      now: hooks.now,
      timeoutMs: settings.timeoutMs,
    });

  /** Every page of a list, until a short page. */
  async function pages<T>(step: string, path: string, key: string, accessToken: string, tenantId: string): Promise<T[]> {
    const all: T[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const sep = path.includes('?') ? '&' : '?';
      const body = await api<Record<string, T[] | undefined>>(
        step,
        `${path}${sep}page=${page}&pageSize=${XERO_PAGE_SIZE}`,
        accessToken,
        tenantId,
      );
      const list = body[key];
      if (!Array.isArray(list)) throw new ProviderError('xero', 'bad_response', step);
      all.push(...list);
      if (list.length < XERO_PAGE_SIZE) break;
    }
    return all;
  }

  return {
    provider: 'xero',
    settings,
    async organisation(accessToken): Promise<ConnectedOrganisation> {
      const list = await providerCall<XeroConnection[]>({
        provider: 'xero',
        step: 'connections',
        url: settings.connectionsUrl,
        headers: auth(accessToken),
        now: hooks.now,
        timeoutMs: settings.timeoutMs,
      });
      if (!Array.isArray(list)) throw new ProviderError('xero', 'bad_response', 'connections');
      const orgs = list.filter((c) => c.tenantType === 'ORGANISATION' && typeof c.tenantId === 'string');
      // The organisation this consent just granted: same auth event, else the most recently updated.
      const event = authEventOf(accessToken);
      const chosen =
        (event && orgs.find((c) => c.authEventId === event)) ||
        [...orgs].sort((a, b) => String(b.updatedDateUtc ?? '').localeCompare(String(a.updatedDateUtc ?? '')))[0];
      if (!chosen?.tenantId) throw new ProviderError('xero', 'refused', 'connections (no organisation was chosen)');
      return { externalId: chosen.tenantId, connectionId: chosen.id ?? null, companyName: chosen.tenantName ?? null };
    },
    async summarise(accessToken, tenantId, progress): Promise<SyncResult> {
      const orgBody = await api<{ Organisations?: Array<{ Name?: string; BaseCurrency?: string }> }>(
        'organisation',
        '/Organisation',
        accessToken,
        tenantId,
      );
      const org = orgBody.Organisations?.[0];
      if (!org) throw new ProviderError('xero', 'bad_response', 'organisation');
      const currency = org.BaseCurrency || 'GBP';
      await progress(20);
      const contacts = await pages<unknown>('contacts', '/Contacts?summaryOnly=true', 'Contacts', accessToken, tenantId);
      await progress(45);
      // AUTHORISED is Xero's "awaiting payment": the documents with money still owed.
      const invoices = await pages<XeroInvoice>(
        'invoices',
        '/Invoices?summaryOnly=true&Statuses=AUTHORISED',
        'Invoices',
        accessToken,
        tenantId,
      );
      await progress(85);
      const items: OpenItem[] = [];
      let sales = 0;
      let bills = 0;
      for (const inv of invoices) {
        if (inv.Status && inv.Status !== 'AUTHORISED') continue;
        const kind = inv.Type === 'ACCREC' ? 'receivable' : inv.Type === 'ACCPAY' ? 'payable' : null;
        if (!kind) continue;
        if (kind === 'receivable') sales++;
        else bills++;
        const due = Number(inv.AmountDue ?? 0);
        const sameCurrency = !inv.CurrencyCode || inv.CurrencyCode === currency;
        items.push({
          kind,
          amountDue: sameCurrency ? due : toBase(due, inv.CurrencyRate, 'divide'),
          dueDate: dayOf(inv.DueDateString) ?? dayOf(inv.DueDate),
        });
      }
      return {
        companyName: org.Name ?? null,
        summary: summarise({ currency, items, contacts: contacts.length, invoices: sales, bills, today: ukDay() }),
      };
    },
    async ledger(accessToken, tenantId, { from, to, basis }) {
      const accounts = await api<{ Accounts?: XeroAccount[] }>('accounts', '/Accounts', accessToken, tenantId);
      if (!Array.isArray(accounts.Accounts)) throw new ProviderError('xero', 'bad_response', 'accounts');
      // standardLayout: the organisation's custom layout could fold accounts together; paymentsOnly: cash basis.
      const q = new URLSearchParams({ fromDate: from, toDate: to, standardLayout: 'true', paymentsOnly: String(basis === 'cash') });
      const report = await api<{ Reports?: Array<{ Rows?: XeroReportRow[] }> }>(
        'profit and loss',
        `/Reports/ProfitAndLoss?${q.toString()}`,
        accessToken,
        tenantId,
      );
      return xeroLedgerLines(report, accounts.Accounts);
    },
  };
}
