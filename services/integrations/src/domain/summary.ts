import type { IntegrationSummary } from '@countinghouse/proto';

/** An unpaid sales invoice or bill, its amount already in the organisation's base currency. */
export interface OpenItem {
  kind: 'receivable' | 'payable';
  amountDue: number;
  /** YYYY-MM-DD, or null when the document has no due date. */
  dueDate: string | null;
}

export interface SummaryInput {
  currency: string;
  items: OpenItem[];
  contacts: number;
  invoices: number;
  bills: number;
  /** Today in the UK, YYYY-MM-DD. */
  today: string;
}

const pence = (n: number) => Math.round(n * 100);

/** Totals in pence first, so many small amounts never drift; overdue means due before today. */
export function summarise(i: SummaryInput): IntegrationSummary {
  let receivables = 0;
  let payables = 0;
  let overdueReceivables = 0;
  let overduePayables = 0;
  for (const item of i.items) {
    const p = pence(item.amountDue);
    if (p <= 0) continue;
    const overdue = item.dueDate !== null && item.dueDate < i.today;
    if (item.kind === 'receivable') {
      receivables += p;
      if (overdue) overdueReceivables += p;
    } else {
      payables += p;
      if (overdue) overduePayables += p;
    }
  }
  return {
    currency: i.currency,
    receivables: receivables / 100,
    payables: payables / 100,
    overdue_receivables: overdueReceivables / 100,
    overdue_payables: overduePayables / 100,
    contacts: i.contacts,
    invoices: i.invoices,
    bills: i.bills,
  };
}

const londonDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });

/** YYYY-MM-DD of an instant, in the UK. */
export function ukDay(d: Date = new Date()): string {
  return londonDay.format(d);
}

/**
 * A due date as the providers send it, as YYYY-MM-DD: Xero's `/Date(1518685950940+0000)/` or
 * `2018-02-15T00:00:00`, QuickBooks' `2024-01-31`.
 */
export function dayOf(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  const ms = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/.exec(value);
  if (ms) return new Date(Number(ms[1])).toISOString().slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;
}

/**
 * An amount in a document's currency, converted to the base currency. Xero's CurrencyRate is units of
 * the document currency per unit of base currency (divide); QuickBooks' ExchangeRate is base currency
 * per unit of the document currency (multiply). A missing or zero rate means the same currency.
 */
export function toBase(amount: number, rate: number | undefined, convention: 'divide' | 'multiply'): number {
  if (!rate || !Number.isFinite(rate) || rate <= 0) return amount;
  return convention === 'divide' ? amount / rate : amount * rate;
}
