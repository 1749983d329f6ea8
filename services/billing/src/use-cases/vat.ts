import { AppError, type Principal } from '@countinghouse/kit';
import {
  MESSAGES,
  normaliseVatNumber,
  VAT_MESSAGES,
  invoiceNumber,
  vatLines,
  type Invoice,
  type VatRegistration,
  type VatRegistrationBody,
} from '@countinghouse/proto';
import type { DbOrTx } from '../db/queries.js';
import {
  documentForProvider,
  hasInvoiceForCheckout,
  invoiceForStripeInvoice,
  insertInvoice,
  insertVatRegistration,
  nextDocumentNumber,
  readCurrentVat,
  readCustomerNames,
  readInvoice,
  readInvoicesOf,
  readLatestInvoices,
  type InvoiceRow,
  type VatRow,
} from '../db/vat-queries.js';
import { renderInvoice } from '../adapters/pdf/invoice.js';
import type { BillingDeps } from './deps.js';

export async function currentVat(db: DbOrTx): Promise<VatRow | null> {
  return readCurrentVat(db);
}

/** The VAT rate charged now, percent: 0 while the practice is not VAT-registered. */
export async function chargedRate(db: DbOrTx): Promise<number> {
  const v = await currentVat(db);
  return v?.vatNumber ? Number(v.rate) : 0;
}

export function toRegistration(v: VatRow | null): VatRegistration {
  return {
    registered: Boolean(v?.vatNumber),
    vat_number: v?.vatNumber ?? null,
    rate: v ? Number(v.rate) : 20,
    address: v?.address ?? '',
    updated_at: v?.createdAt.toISOString() ?? null,
  };
}

/** An administrator records the practice's VAT registration (a new row; what was charged before stays). */
export async function saveVat(d: BillingDeps, principal: Principal, body: VatRegistrationBody): Promise<VatRegistration> {
  const problems: { path: string; message: string }[] = [];
  let vatNumber: string | null = null;
  if (body.vat_number?.trim()) {
    vatNumber = normaliseVatNumber(body.vat_number);
    if (!vatNumber) problems.push({ path: '/vat_number', message: VAT_MESSAGES.numberInvalid });
  }
  const address = body.address.trim();
  if (vatNumber && !address) problems.push({ path: '/address', message: VAT_MESSAGES.addressRequired });
  if (!(body.rate >= 0 && body.rate <= 100)) problems.push({ path: '/rate', message: VAT_MESSAGES.rateInvalid });
  if (problems.length) throw new AppError('VALIDATION_FAILED', problems[0]!.message ?? MESSAGES.validationFailed, problems);
  const row = await insertVatRegistration(d.db, { vatNumber, rate: body.rate, address, createdBy: principal.id });
  return toRegistration(row);
}

function toInvoice(r: InvoiceRow): Invoice {
  return {
    id: r.id,
    number: r.number,
    kind: r.kind,
    issued_at: r.issuedAt.toISOString(),
    client_name: r.clientName,
    email: r.email,
    description: r.description,
    net: Number(r.net),
    vat_rate: Number(r.vatRate),
    vat: Number(r.vat),
    gross: Number(r.gross),
    vat_number: r.vatNumber,
  };
}

/**
 * The VAT invoice for a paid checkout, once (a replayed completion finds it). Made in the payment's
 * transaction from the VAT registration in force and the rate the checkout showed.
 */
export async function issueInvoiceForCheckout(
  tx: DbOrTx,
  o: {
    practiceName: string;
    userId: string;
    subscriptionId: string;
    checkoutSessionId: string;
    packageName: string;
    net: number;
    vatRate: number;
    email: string;
    clientName: string;
    at: Date;
  },
): Promise<void> {
  if (await hasInvoiceForCheckout(tx, o.checkoutSessionId)) return;
  const lines = vatLines(o.net, o.vatRate);
  await issueInvoice(tx, {
    ...o,
    providerInvoiceId: null,
    description: `${o.packageName} package: accountancy services, one month`,
    lines,
  });
}

/**
 * The VAT invoice for a renewal Stripe charged (invoice.paid for a subscription's next period), once per
 * Stripe invoice: the amounts are what Stripe charged (net before tax, gross paid), at the rate the
 * checkout set on the subscription (decision 662).
 */
export async function issueInvoiceForRenewal(
  tx: DbOrTx,
  o: {
    practiceName: string;
    userId: string;
    subscriptionId: string;
    providerInvoiceId: string;
    packageName: string;
    net: number;
    gross: number;
    vatRate: number;
    email: string;
    clientName: string;
    at: Date;
    periodEnd: Date | null;
  },
): Promise<boolean> {
  if (await documentForProvider(tx, 'invoice', o.providerInvoiceId)) return false;
  const until = o.periodEnd ? `, to ${longDate(o.periodEnd)}` : '';
  await issueInvoice(tx, {
    ...o,
    checkoutSessionId: null,
    description: `${o.packageName} package: accountancy services, one month${until}`,
    lines: chargedLines(o.net, o.gross, o.vatRate),
  });
  return true;
}

/**
 * The credit note for a Stripe credit note (a refund, or a credit against an invoice), once per Stripe credit
 * note: against our VAT invoice of the Stripe invoice it credits, named on it with its date (decision 663).
 * Returns false when it was issued before or credits an invoice we did not issue.
 */
export async function issueCreditNote(
  tx: DbOrTx,
  o: {
    practiceName: string;
    providerCreditNoteId: string;
    stripeInvoiceId: string;
    net: number;
    gross: number;
    reason: string | null;
    at: Date;
  },
): Promise<boolean> {
  if (await documentForProvider(tx, 'credit_note', o.providerCreditNoteId)) return false;
  const original = await invoiceForStripeInvoice(tx, o.stripeInvoiceId);
  if (!original) return false;
  await issueInvoice(tx, {
    kind: 'credit_note',
    practiceName: o.practiceName,
    userId: original.userId,
    subscriptionId: original.subscriptionId,
    checkoutSessionId: null,
    providerInvoiceId: o.providerCreditNoteId,
    description: `Credit against invoice ${original.number} of ${longDate(original.issuedAt)}${o.reason ? `: ${CREDIT_REASONS[o.reason] ?? o.reason}` : ''}`,
    lines: chargedLines(o.net, o.gross, Number(original.vatRate)),
    email: original.email,
    clientName: original.clientName,
    at: o.at,
  });
  return true;
}

/** What Stripe charged or credited, to the penny: net before tax, gross, VAT the difference. */
function chargedLines(net: number, gross: number, rate: number) {
  const n = Math.round(net * 100) / 100;
  const g = Math.round(gross * 100) / 100;
  return { net: n, rate, vat: Math.round((g - n) * 100) / 100, gross: g };
}

/** e.g. "15 July 2031", the London day. */
const longDate = (d: Date) => d.toLocaleDateString('en-GB', { timeZone: 'Europe/London', day: 'numeric', month: 'long', year: 'numeric' });

/** Stripe's credit note reasons, as the credit note says them. */
const CREDIT_REASONS: Record<string, string> = {
  duplicate: 'charged twice',
  fraudulent: 'a fraudulent charge',
  order_change: 'a change of package',
  product_unsatisfactory: 'a refund',
};

/** A numbered VAT invoice or credit note with its PDF, fixed when issued (VAT Regulations 1995 reg. 14, 15). */
async function issueInvoice(
  tx: DbOrTx,
  o: {
    kind?: 'invoice' | 'credit_note';
    practiceName: string;
    userId: string;
    subscriptionId: string | null;
    checkoutSessionId: string | null;
    providerInvoiceId: string | null;
    description: string;
    lines: { net: number; rate: number; vat: number; gross: number };
    email: string;
    clientName: string;
    at: Date;
  },
): Promise<void> {
  const vat = await currentVat(tx);
  const { lines, description } = o;
  const kind = o.kind ?? 'invoice';
  const seq = await nextDocumentNumber(tx, kind);
  const number = invoiceNumber(kind, seq);
  const practiceAddress = vat?.address ?? '';
  const pdf = Buffer.from(
    await renderInvoice({
      kind,
      number,
      issuedAt: o.at,
      practiceName: o.practiceName,
      practiceAddress,
      vatNumber: vat?.vatNumber ?? null,
      clientName: o.clientName,
      email: o.email,
      description,
      net: lines.net,
      vatRate: lines.rate,
      vat: lines.vat,
      gross: lines.gross,
    }),
  );
  await insertInvoice(tx, {
    kind,
    seq,
    number,
    userId: o.userId,
    subscriptionId: o.subscriptionId,
    checkoutSessionId: o.checkoutSessionId,
    providerInvoiceId: o.providerInvoiceId,
    issuedAt: o.at,
    clientName: o.clientName,
    email: o.email,
    description,
    net: lines.net,
    vatRate: lines.rate,
    vat: lines.vat,
    gross: lines.gross,
    practiceName: o.practiceName,
    practiceAddress,
    vatNumber: vat?.vatNumber ?? null,
    pdf,
  });
}

export async function customerLabel(tx: DbOrTx, userId: string, email: string): Promise<string> {
  const c = await readCustomerNames(tx, userId);
  return c?.companyName || c?.name || email;
}

export async function myInvoices(d: BillingDeps, userId: string): Promise<Invoice[]> {
  return (await readInvoicesOf(d.db, userId)).map(toInvoice);
}

export async function allInvoices(d: BillingDeps): Promise<Invoice[]> {
  return (await readLatestInvoices(d.db, 500)).map(toInvoice);
}

/** One invoice's PDF: its client, or the practice's billing staff; anyone else is told it does not exist. */
export async function invoicePdf(d: BillingDeps, principal: Principal, id: string, staff: boolean) {
  const row = await readInvoice(d.db, id);
  if (!row || (!staff && row.userId !== principal.id)) throw new AppError('NOT_FOUND', 'Invoice not found');
  return { pdf: row.pdf, number: row.number };
}
