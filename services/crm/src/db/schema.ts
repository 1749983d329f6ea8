import { outboxTables } from '@countinghouse/kit';
import type {
  BusinessType,
  ClientBadges,
  CommunicationChannel,
  CommunicationDirection,
  LeadStage,
  SubscriptionStatus,
  TaskPriority,
  TaskStatus,
  TimelineKind,
  UpgradeStatus,
} from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export const SCHEMA = 'crm';
export const crm = pgSchema(SCHEMA);

export const { outbox, processedEvents } = outboxTables(crm);

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** Client businesses (spec section 3). monthly_fee follows the package (monthlyFeeFor). */
export const clients = crm.table(
  'clients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id'),
    companyName: text('company_name').notNull(),
    contactName: text('contact_name'),
    contactEmail: text('contact_email').notNull(),
    contactPhone: text('contact_phone'),
    businessType: text('business_type').$type<BusinessType>().notNull().default('limited'),
    packageName: text('package_name'),
    monthlyFee: numeric('monthly_fee', { precision: 10, scale: 2, mode: 'number' }).notNull(),
    subscriptionStatus: text('subscription_status').$type<SubscriptionStatus>().notNull().default('pending'),
    nextBillingDate: date('next_billing_date', { mode: 'string' }),
    registrationDate: timestamp('registration_date', { withTimezone: true }).notNull().defaultNow(),
    onboardingCompleted: boolean('onboarding_completed').notNull().default(false),
    employeesCount: integer('employees_count').notNull().default(0),
    assignedAccountantId: uuid('assigned_accountant_id'),
    /** The lead this client was converted from, once. */
    sourceLeadId: uuid('source_lead_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The payment flow upserts clients keyed on user_id (spec section 7).
    uniqueIndex('clients_user_id_key').on(t.userId),
    uniqueIndex('clients_source_lead_id_key').on(t.sourceLeadId),
    check('clients_status_check', sql`${t.subscriptionStatus} in ('active', 'pending', 'cancelled', 'overdue')`),
    check('clients_business_type_check', sql`${t.businessType} in ('sole_trader', 'partnership', 'limited', 'llp')`),
    check('clients_employees_check', sql`${t.employeesCount} >= 0`),
    check('clients_fee_check', sql`${t.monthlyFee} >= 0`),
    index('clients_company_name_trgm').using('gin', t.companyName.op('gin_trgm_ops')),
    index('clients_contact_email_trgm').using('gin', t.contactEmail.op('gin_trgm_ops')),
    index('clients_contact_name_trgm').using('gin', t.contactName.op('gin_trgm_ops')),
    // Ascending btrees read backwards serve `order by x desc, id desc` (DESC NULLS FIRST); a
    // `DESC NULLS LAST` index would not, and the planner would sort the whole table instead.
    index('clients_created_at_idx').on(t.createdAt, t.id),
    index('clients_registration_date_idx').on(t.registrationDate, t.id),
    index('clients_status_created_idx').on(t.subscriptionStatus, t.createdAt, t.id),
    index('clients_status_registration_idx').on(t.subscriptionStatus, t.registrationDate, t.id),
    index('clients_package_created_idx').on(t.packageName, t.createdAt, t.id),
    index('clients_package_registration_idx').on(t.packageName, t.registrationDate, t.id),
    index('clients_accountant_idx').on(t.assignedAccountantId, t.createdAt),
  ],
);

/** Sales enquiries (spec section 3), including those imported from GoHighLevel. */
export const leads = crm.table(
  'leads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    companyName: text('company_name'),
    stage: text('stage').$type<LeadStage>().notNull().default('new_enquiry'),
    businessType: text('business_type').$type<BusinessType>(),
    quoteAmount: numeric('quote_amount', { precision: 12, scale: 2, mode: 'number' }),
    source: text('source'),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    notes: text('notes'),
    externalId: text('external_id'),
    convertedClientId: uuid('converted_client_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Re-imports find the same lead by external id, then by e-mail (case-insensitive).
    uniqueIndex('leads_external_id_key')
      .on(t.externalId)
      .where(sql`${t.externalId} is not null`),
    uniqueIndex('leads_email_key')
      .on(sql`lower(${t.email})`)
      .where(sql`${t.email} is not null`),
    check('leads_stage_check', sql`${t.stage} in ('new_enquiry', 'qualified', 'proposal_sent', 'negotiation', 'won', 'lost')`),
    check(
      'leads_business_type_check',
      sql`${t.businessType} is null or ${t.businessType} in ('sole_trader', 'partnership', 'limited', 'llp')`,
    ),
    index('leads_name_trgm').using('gin', t.name.op('gin_trgm_ops')),
    index('leads_email_trgm').using('gin', t.email.op('gin_trgm_ops')),
    index('leads_company_name_trgm').using('gin', t.companyName.op('gin_trgm_ops')),
    index('leads_created_at_idx').on(t.createdAt, t.id),
    index('leads_stage_created_idx').on(t.stage, t.createdAt, t.id),
    index('leads_source_created_idx').on(t.source, t.createdAt, t.id),
  ],
);

export const tasks = crm.table(
  'tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    description: text('description'),
    clientId: uuid('client_id').references(() => clients.id, { onDelete: 'set null' }),
    assigneeId: uuid('assignee_id'),
    dueDate: date('due_date', { mode: 'string' }),
    status: text('status').$type<TaskStatus>().notNull().default('pending'),
    priority: text('priority').$type<TaskPriority>().notNull().default('medium'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** Who asked for it, for tasks opened by another service (deadlines' idempotency key): one task per key. */
    sourceKey: text('source_key'),
    /** The deadline a task came from (deadlines.task_requested), when it did. */
    deadlineId: text('deadline_id'),
  },
  (t) => [
    uniqueIndex('tasks_source_key_idx')
      .on(t.sourceKey)
      .where(sql`${t.sourceKey} is not null`),
    check('tasks_status_check', sql`${t.status} in ('pending', 'in_progress', 'completed', 'cancelled')`),
    check('tasks_priority_check', sql`${t.priority} in ('low', 'medium', 'high', 'urgent')`),
    index('tasks_title_trgm').using('gin', t.title.op('gin_trgm_ops')),
    index('tasks_status_due_idx').on(t.status, t.dueDate),
    index('tasks_created_at_idx').on(t.createdAt, t.id),
    index('tasks_client_idx').on(t.clientId),
    index('tasks_assignee_idx').on(t.assigneeId),
  ],
);

export const clientUpgrades = crm.table(
  'client_upgrades',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    fromPackage: text('from_package'),
    toPackage: text('to_package').notNull(),
    status: text('status').$type<UpgradeStatus>().notNull().default('pending'),
    notes: text('notes'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: text('decided_by'),
  },
  (t) => [
    check('client_upgrades_status_check', sql`${t.status} in ('pending', 'approved', 'rejected', 'completed')`),
    index('client_upgrades_status_idx').on(t.status, t.requestedAt),
    index('client_upgrades_requested_idx').on(t.requestedAt, t.id),
    index('client_upgrades_client_idx').on(t.clientId),
  ],
);

export const communications = crm.table(
  'communications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: uuid('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    channel: text('channel').$type<CommunicationChannel>().notNull(),
    direction: text('direction').$type<CommunicationDirection>().notNull(),
    subject: text('subject').notNull(),
    body: text('body'),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    createdBy: text('created_by'),
  },
  (t) => [
    check('communications_channel_check', sql`${t.channel} in ('email', 'phone', 'meeting', 'letter', 'portal')`),
    check('communications_direction_check', sql`${t.direction} in ('inbound', 'outbound')`),
    index('communications_subject_trgm').using('gin', t.subject.op('gin_trgm_ops')),
    index('communications_occurred_idx').on(t.occurredAt, t.id),
    index('communications_created_idx').on(t.createdAt),
    index('communications_client_idx').on(t.clientId, t.occurredAt),
  ],
);

/** Read model of the practice's team, fed by identity.role_changed and identity.staff_joined. */
export const teamMembers = crm.table(
  'team_members',
  {
    userId: uuid('user_id').notNull(),
    role: text('role').notNull(),
    isActive: boolean('is_active').notNull(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** occurredAt of the event that last set this row: an older event never overwrites a newer one. */
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] }), index('team_members_active_idx').on(t.isActive, t.role)],
);

/** One row: the last GoHighLevel import. */
export const ghlSync = crm.table(
  'ghl_sync',
  {
    id: integer('id').primaryKey().default(1),
    lastImportAt: timestamp('last_import_at', { withTimezone: true }),
    lastImportTotal: integer('last_import_total'),
    lastError: text('last_error'),
  },
  (t) => [check('ghl_sync_single_row', sql`${t.id} = 1`)],
);

/**
 * Exact counters for the summary cards, kept by statement-level triggers (migration 0003) in the
 * same transaction as every insert, update, delete or truncate: reading the cards never scans the
 * tables, whatever their size.
 */
export const clientTotals = crm.table('client_totals', {
  subscriptionStatus: text('subscription_status').primaryKey(),
  clients: bigint('clients', { mode: 'number' }).notNull().default(0),
  revenue: numeric('revenue', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
});

export const leadTotals = crm.table('lead_totals', {
  stage: text('stage').primaryKey(),
  leads: bigint('leads', { mode: 'number' }).notNull().default(0),
});

/** The identifiers a UK practice keeps for a client (issue 26), each validated (proto's identifiers.ts) before it is stored. */
export const clientIdentifiers = crm.table('client_identifiers', {
  clientId: uuid('client_id')
    .primaryKey()
    .references(() => clients.id, { onDelete: 'cascade' }),
  utr: text('utr'),
  vatNumber: text('vat_number'),
  payeReference: text('paye_reference'),
  accountsOfficeReference: text('accounts_office_reference'),
  nino: text('nino'),
  registeredOffice: text('registered_office'),
  sicCodes: text('sic_codes')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedById: text('updated_by_id'),
  updatedByName: text('updated_by_name'),
});

/**
 * The client's Timeline: a read model built from the services' events (and crm's own notes), one row
 * per event id. Entries about a person who has no client record yet (signed up, not paid) wait with
 * their user id and are attached when the client is created.
 */
export const timelineEntries = crm.table(
  'timeline_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** The event's id (or the note's own id): an event is entered once, whatever the redelivery. */
    sourceId: text('source_id').notNull(),
    clientId: uuid('client_id'),
    userId: text('user_id'),
    kind: text('kind').$type<TimelineKind>().notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    summary: text('summary').notNull(),
    actorName: text('actor_name'),
    source: text('source').notNull(),
    refType: text('ref_type'),
    refId: text('ref_id'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('timeline_source_idx').on(t.sourceId),
    index('timeline_client_at_idx').on(t.clientId, t.at, t.id),
    index('timeline_orphan_user_idx')
      .on(t.userId)
      .where(sql`${t.clientId} is null`),
  ],
);

/** What the client record's badges say, kept from the services' events (no call per page view). */
export const clientSignals = crm.table('client_signals', {
  clientId: uuid('client_id').primaryKey(),
  /** outstanding, awaiting_approval or approved. */
  dueDiligence: text('due_diligence').$type<ClientBadges['due_diligence']>().notNull().default('outstanding'),
  /** none, awaiting_signature or signed. */
  letter: text('letter').$type<ClientBadges['letter']>().notNull().default('none'),
  overdueDeadlineIds: text('overdue_deadline_ids')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  updatedAt: updatedAt(),
});
