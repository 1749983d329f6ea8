import { outboxTables } from '@countinghouse/kit';
import type { BillingProvider, Invoice, PackageName, SubscriptionStatus } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import {
  check,
  customType,
  index,
  integer,
  numeric,
  pgSchema,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const SCHEMA = 'billing';
export const billing = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(billing);

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const fee = (name: string) => numeric(name, { precision: 10, scale: 2, mode: 'number' });

/**
 * Read model of the people who signed up (identity.user_registered): the e-mail the client record
 * and Stripe need, and the name and company typed at sign-up, which the new client record takes.
 */
export const customers = billing.table('customers', {
  userId: uuid('user_id').primaryKey(),
  email: text('email').notNull(),
  name: text('name'),
  companyName: text('company_name'),
  /** What the sign-up asked about the business (issue 33), for the new client record. */
  businessType: text('business_type'),
  companyNumber: text('company_number'),
  phone: text('phone'),
  updatedAt: updatedAt(),
});

/**
 * Terms before payment (issue 33): the packages whose engagement letter each person has signed
 * (engagement.terms_accepted). A checkout for a package without a row here is refused (409).
 */
export const acceptedTerms = billing.table(
  'accepted_terms',
  {
    userId: uuid('user_id').notNull(),
    packageName: text('package_name').notNull(),
    letterId: uuid('letter_id').notNull(),
    version: integer('version').notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.packageName] })],
);

/**
 * Checkout sessions we started. The id is the provider's (Stripe's cs_..., or ours for the test
 * checkout). open → paid (test checkout: the person pressed Pay) → completed (a subscription exists);
 * with a delayed payment method (Bacs Direct Debit): open → processing → completed, or → failed.
 */
export const checkoutSessions = billing.table(
  'checkout_sessions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id').notNull(),
    /** Always a catalogue package: a checkout starts only for one (packageOrFail). */
    packageName: text('package_name').$type<PackageName>().notNull(),
    monthlyFee: fee('monthly_fee').notNull(),
    /** Issue 33: the VAT rate (percent) when the checkout started; 0 when the practice was not registered. */
    vatRate: numeric('vat_rate', { precision: 5, scale: 2, mode: 'number' }).notNull().default(0),
    provider: text('provider').$type<BillingProvider>().notNull(),
    status: text('status').notNull().default('open'),
    url: text('url').notNull(),
    providerCustomerId: text('provider_customer_id'),
    providerSubscriptionId: text('provider_subscription_id'),
    subscriptionId: uuid('subscription_id'),
    createdAt: createdAt(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
  },
  (t) => [
    check('checkout_sessions_status_check', sql`${t.status} in ('open', 'processing', 'paid', 'completed', 'failed', 'expired')`),
    check('checkout_sessions_provider_check', sql`${t.provider} in ('stripe', 'test')`),
    index('checkout_sessions_user_idx').on(t.userId, t.createdAt.desc()),
  ],
);

/** One row per subscription. A person has at most one that is not cancelled. */
export const subscriptions = billing.table(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    email: text('email').notNull(),
    packageName: text('package_name').notNull(),
    monthlyFee: fee('monthly_fee').notNull(),
    status: text('status').$type<SubscriptionStatus>().notNull(),
    provider: text('provider').$type<BillingProvider>().notNull(),
    providerCustomerId: text('provider_customer_id'),
    providerSubscriptionId: text('provider_subscription_id'),
    checkoutSessionId: text('checkout_session_id').notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    check('subscriptions_status_check', sql`${t.status} in ('active', 'pending', 'cancelled', 'overdue')`),
    check('subscriptions_provider_check', sql`${t.provider} in ('stripe', 'test')`),
    // A replayed verification or webhook can never make a second subscription for one checkout.
    uniqueIndex('subscriptions_checkout_session_key').on(t.checkoutSessionId),
    uniqueIndex('subscriptions_provider_subscription_key')
      .on(t.provider, t.providerSubscriptionId)
      .where(sql`${t.providerSubscriptionId} is not null`),
    uniqueIndex('subscriptions_live_user_key')
      .on(t.userId)
      .where(sql`${t.status} <> 'cancelled'`),
    index('subscriptions_status_created_idx').on(t.status, t.createdAt.desc()),
    index('subscriptions_created_idx').on(t.createdAt.desc(), t.id.desc()),
  ],
);

/** Payments seen (test checkout, Stripe invoices): revenue collected and failed payments. */
export const payments = billing.table(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    providerInvoiceId: text('provider_invoice_id'),
    amount: fee('amount').notNull(),
    status: text('status').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('payments_status_check', sql`${t.status} in ('paid', 'failed')`),
    uniqueIndex('payments_invoice_status_key')
      .on(t.providerInvoiceId, t.status)
      .where(sql`${t.providerInvoiceId} is not null`),
    index('payments_status_occurred_idx').on(t.status, t.occurredAt.desc()),
  ],
);

/** Stripe webhook events already processed: each event id once. */
export const webhookEvents = billing.table('webhook_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The practice's VAT registration (issue 33), one row per save; the newest is current. A null number
 * means not registered (no VAT charged). Rows are only ever added (the history of what was charged).
 */
export const vatRegistrations = billing.table('vat_registrations', {
  id: serial('id').primaryKey(),
  vatNumber: text('vat_number'),
  rate: numeric('rate', { precision: 5, scale: 2, mode: 'number' }).notNull(),
  address: text('address').notNull(),
  createdAt: createdAt(),
  createdBy: text('created_by'),
});

/** The last number used in each sequence (invoice, credit note): taken under a row lock, so gap-free. */
export const documentCounters = billing.table('document_counters', {
  kind: text('kind').primaryKey(),
  last: integer('last').notNull(),
});

/**
 * VAT invoices and credit notes (VAT Regulations 1995 reg. 14): what was charged, to whom, by whom,
 * fixed when issued, with the PDF made then. Never changed or deleted (migration trigger).
 */
export const invoices = billing.table(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<Invoice['kind']>().notNull(),
    seq: integer('seq').notNull(),
    number: text('number').notNull(),
    userId: uuid('user_id').notNull(),
    subscriptionId: uuid('subscription_id'),
    checkoutSessionId: text('checkout_session_id'),
    /** The Stripe invoice of a renewal (invoice.paid, billing_reason subscription_cycle): one VAT invoice each. */
    providerInvoiceId: text('provider_invoice_id'),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    clientName: text('client_name').notNull(),
    email: text('email').notNull(),
    description: text('description').notNull(),
    net: fee('net').notNull(),
    vatRate: numeric('vat_rate', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    vat: fee('vat').notNull(),
    gross: fee('gross').notNull(),
    practiceName: text('practice_name').notNull(),
    practiceAddress: text('practice_address').notNull(),
    vatNumber: text('vat_number'),
    pdf: bytea('pdf').notNull(),
  },
  (t) => [
    uniqueIndex('invoices_number_idx').on(t.number),
    uniqueIndex('invoices_session_kind_idx').on(t.checkoutSessionId, t.kind),
    uniqueIndex('invoices_provider_invoice_kind_idx')
      .on(t.providerInvoiceId, t.kind)
      .where(sql`${t.providerInvoiceId} is not null`),
    index('invoices_user_idx').on(t.userId, t.issuedAt),
    check('invoices_kind_check', sql`${t.kind} in ('invoice', 'credit_note')`),
  ],
);
