// Every query of the VAT registration and the VAT invoices (issue 33); each takes DbOrTx, so it runs
// alone or in the caller's transaction (the payment's, for an invoice).
import { and, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from './queries.js';
import { customers, invoices, payments, subscriptions, vatRegistrations } from './schema.js';

export type VatRow = typeof vatRegistrations.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoiceRow = typeof invoices.$inferInsert;

export async function readCurrentVat(db: DbOrTx): Promise<VatRow | null> {
  const [row] = await db.select().from(vatRegistrations).orderBy(desc(vatRegistrations.id)).limit(1);
  return row ?? null;
}

export async function insertVatRegistration(
  db: DbOrTx,
  v: { vatNumber: string | null; rate: number; address: string; createdBy: string },
): Promise<VatRow> {
  const [row] = await db.insert(vatRegistrations).values(v).returning();
  return row!;
}

/** The next number in a sequence, under a row lock: two payments at once never share one, none is skipped. */
export async function nextDocumentNumber(tx: DbOrTx, kind: 'invoice' | 'credit_note'): Promise<number> {
  const res = await tx.execute<{ last: number }>(sql`
    insert into billing.document_counters (kind, last) values (${kind}, 1)
    on conflict (kind) do update set last = billing.document_counters.last + 1
    returning last`);
  return Number(res.rows[0]!.last);
}

/** Whether the VAT invoice of a checkout has been issued. */
export async function hasInvoiceForCheckout(tx: DbOrTx, checkoutSessionId: string): Promise<boolean> {
  const [existing] = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.checkoutSessionId, checkoutSessionId), eq(invoices.kind, 'invoice')))
    .limit(1);
  return Boolean(existing);
}

/** The document of this kind issued for a Stripe document (a renewal's invoice, a credit note), if any. */
export async function documentForProvider(tx: DbOrTx, kind: 'invoice' | 'credit_note', providerId: string): Promise<InvoiceRow | null> {
  const [row] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.providerInvoiceId, providerId), eq(invoices.kind, kind)))
    .limit(1);
  return row ?? null;
}

/**
 * Our VAT invoice for a Stripe invoice: a renewal's carries its id; Stripe's first invoice of a subscription
 * (paid, recorded in payments) is the checkout's, whose VAT invoice the checkout issued.
 */
export async function invoiceForStripeInvoice(tx: DbOrTx, stripeInvoiceId: string): Promise<InvoiceRow | null> {
  const renewal = await documentForProvider(tx, 'invoice', stripeInvoiceId);
  if (renewal) return renewal;
  const [first] = await tx
    .select({ invoice: invoices })
    .from(payments)
    .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
    .innerJoin(invoices, and(eq(invoices.checkoutSessionId, subscriptions.checkoutSessionId), eq(invoices.kind, 'invoice')))
    .where(eq(payments.providerInvoiceId, stripeInvoiceId))
    .limit(1);
  return first?.invoice ?? null;
}

export async function insertInvoice(tx: DbOrTx, row: NewInvoiceRow): Promise<void> {
  await tx.insert(invoices).values(row);
}

export async function readCustomerNames(tx: DbOrTx, userId: string): Promise<{ companyName: string | null; name: string | null } | null> {
  const [c] = await tx.select().from(customers).where(eq(customers.userId, userId)).limit(1);
  return c ?? null;
}

export async function readInvoicesOf(db: DbOrTx, userId: string): Promise<InvoiceRow[]> {
  return db.select().from(invoices).where(eq(invoices.userId, userId)).orderBy(desc(invoices.issuedAt), desc(invoices.seq));
}

export async function readLatestInvoices(db: DbOrTx, limit: number): Promise<InvoiceRow[]> {
  return db.select().from(invoices).orderBy(desc(invoices.issuedAt), desc(invoices.seq)).limit(limit);
}

export async function readInvoice(db: DbOrTx, id: string): Promise<InvoiceRow | null> {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id)).limit(1);
  return row ?? null;
}
