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
import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/queries.js';
import { customers, documentCounters, invoices, vatRegistrations } from '../db/schema.js';
import { renderInvoice } from '../pdf/invoice.js';
import type { BillingDeps } from './deps.js';

type VatRow = typeof vatRegistrations.$inferSelect;
type InvoiceRow = typeof invoices.$inferSelect;

export async function currentVat(db: DbOrTx): Promise<VatRow | null> {
  const [row] = await db.select().from(vatRegistrations).orderBy(desc(vatRegistrations.id)).limit(1);
  return row ?? null;
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
  const [row] = await d.db.insert(vatRegistrations).values({ vatNumber, rate: body.rate, address, createdBy: principal.id }).returning();
  return toRegistration(row!);
}

function toInvoice(r: InvoiceRow): Invoice {
  return {
    id: r.id,
    number: r.number,
    kind: r.kind as Invoice['kind'],
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

/** The next number in a sequence, under a row lock: two payments at once never share one, none is skipped. */
async function nextNumber(tx: DbOrTx, kind: 'invoice' | 'credit_note'): Promise<number> {
  const res = await tx.execute<{ last: number }>(sql`
    insert into billing.document_counters (kind, last) values (${kind}, 1)
    on conflict (kind) do update set last = billing.document_counters.last + 1
    returning last`);
  void documentCounters;
  return Number(res.rows[0]!.last);
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
  const [existing] = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.checkoutSessionId, o.checkoutSessionId), eq(invoices.kind, 'invoice')))
    .limit(1);
  if (existing) return;
  const vat = await currentVat(tx);
  const lines = vatLines(o.net, o.vatRate);
  const seq = await nextNumber(tx, 'invoice');
  const number = invoiceNumber('invoice', seq);
  const description = `${o.packageName} package: accountancy services, one month`;
  const practiceAddress = vat?.address ?? '';
  const pdf = Buffer.from(
    await renderInvoice({
      kind: 'invoice',
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
  await tx.insert(invoices).values({
    kind: 'invoice',
    seq,
    number,
    userId: o.userId,
    subscriptionId: o.subscriptionId,
    checkoutSessionId: o.checkoutSessionId,
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
  const [c] = await tx.select().from(customers).where(eq(customers.userId, userId)).limit(1);
  return c?.companyName || c?.name || email;
}

export async function myInvoices(d: BillingDeps, userId: string): Promise<Invoice[]> {
  const rows = await d.db.select().from(invoices).where(eq(invoices.userId, userId)).orderBy(desc(invoices.issuedAt), desc(invoices.seq));
  return rows.map(toInvoice);
}

export async function allInvoices(d: BillingDeps): Promise<Invoice[]> {
  const rows = await d.db.select().from(invoices).orderBy(desc(invoices.issuedAt), desc(invoices.seq)).limit(500);
  return rows.map(toInvoice);
}

/** One invoice's PDF: its client, or the practice's billing staff; anyone else is told it does not exist. */
export async function invoicePdf(d: BillingDeps, principal: Principal, id: string, staff: boolean) {
  const [row] = await d.db.select().from(invoices).where(eq(invoices.id, id)).limit(1);
  if (!row || (!staff && row.userId !== principal.id)) throw new AppError('NOT_FOUND', 'Invoice not found');
  return { pdf: row.pdf, number: row.number };
}
