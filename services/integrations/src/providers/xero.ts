import type { ProviderSettings } from '../config.js';
import { dayOf, summarise, toBase, ukDay, type OpenItem } from '../domain/summary.js';
import type { AdapterHooks, ConnectedOrganisation, ProviderAdapter, SyncResult } from './adapter.js';
import { providerCall, ProviderError } from './http.js';

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

/** Xero's Accounting API pages hold up to this many records. */
export const XERO_PAGE_SIZE = 1000;
const MAX_PAGES = 200;

/** The authentication_event_id claim of Xero's access token (a JWT from the token endpoint), if any. */
function authEventOf(accessToken: string): string | null {
  try {
    const payload = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
    return typeof payload.authentication_event_id === 'string' ? payload.authentication_event_id : null;
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
      const body = await api<Record<string, unknown>>(step, `${path}${sep}page=${page}&pageSize=${XERO_PAGE_SIZE}`, accessToken, tenantId);
      const list = body[key];
      if (!Array.isArray(list)) throw new ProviderError('xero', 'bad_response', step);
      all.push(...(list as T[]));
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
  };
}
