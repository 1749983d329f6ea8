import { Type, type Static } from '@sinclair/typebox';
import { BUSINESS_TYPES, PACKAGE_FILTERS, SUBSCRIPTION_STATUSES, type PackageName } from '../constants.js';
import { CLIENT_PLACEHOLDERS } from '../rules/client-profile.js';
import { EmailAddress, EmployeesCount, NameText, StoredPhone } from '../rules/schemas.js';
import { CrmDate, CrmDateTime, CrmUuid, Nullable, PageInfo, PageQuery, SearchText, literals } from './common.js';

export const SubscriptionStatusSchema = literals(SUBSCRIPTION_STATUSES);
export const BusinessTypeSchema = literals(BUSINESS_TYPES);
export const PackageFilterSchema = literals(PACKAGE_FILTERS);
export type PackageFilter = Static<typeof PackageFilterSchema>;

/**
 * The admin package filter's names and the stored package each one selects. 'Starter' means the
 * 'Limited Company Starter' package; 'Sole Trader Package' and 'Partnership Package' have no filter
 * entry and appear under All Packages only (docs/decisions.md).
 */
export const PACKAGE_FILTER_TO_PACKAGE: Record<PackageFilter, PackageName> = {
  Starter: 'Limited Company Starter',
  Growth: 'Growth',
  Scale: 'Scale',
  Professional: 'Professional',
  Enterprise: 'Enterprise',
};

/** A client business (spec section 3 `clients`, plus the assigned accountant). Money is GBP, a number. */
export const ClientSchema = Type.Object({
  id: CrmUuid,
  /** The client's own sign-in account, when they have one. */
  user_id: Nullable(CrmUuid),
  company_name: Type.String(),
  contact_name: Nullable(Type.String()),
  contact_email: Type.String(),
  contact_phone: Nullable(Type.String()),
  business_type: BusinessTypeSchema,
  package_name: Nullable(Type.String()),
  /** From the package (monthlyFeeFor): an unknown package is 50. */
  monthly_fee: Type.Number(),
  subscription_status: SubscriptionStatusSchema,
  next_billing_date: Nullable(CrmDate),
  registration_date: CrmDateTime,
  onboarding_completed: Type.Boolean(),
  employees_count: Type.Integer({ minimum: 0 }),
  created_at: CrmDateTime,
  updated_at: CrmDateTime,
  assigned_accountant_id: Nullable(CrmUuid),
  /** The accountant's name from the team read model; null when unassigned or not yet known. */
  assigned_accountant_name: Nullable(Type.String()),
});
export type Client = Static<typeof ClientSchema>;

export const ClientSortSchema = Type.Union([Type.Literal('registration_date'), Type.Literal('created_at')]);
export type ClientSort = Static<typeof ClientSortSchema>;

export const ClientListQuerySchema = Type.Object(
  {
    /** Case-insensitive on company name, contact e-mail and contact name. */
    search: Type.Optional(SearchText),
    /** The filter offers active, pending, cancelled; overdue is accepted too. Omit for All Status. */
    status: Type.Optional(SubscriptionStatusSchema),
    /** A package filter name (Starter = Limited Company Starter). Omit for All Packages. */
    package: Type.Optional(PackageFilterSchema),
    assigned_accountant_id: Type.Optional(CrmUuid),
    /** Registered on or after / on or before this London day (YYYY-MM-DD): the clients report's range. */
    registered_from: Type.Optional(CrmDate),
    registered_to: Type.Optional(CrmDate),
    /** Newest first by this column: the staff portal uses registration_date, the admin created_at. */
    sort: Type.Optional(ClientSortSchema),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type ClientListQuery = Static<typeof ClientListQuerySchema>;

export const ClientListSchema = Type.Object({ clients: Type.Array(ClientSchema), ...PageInfo });
export type ClientList = Static<typeof ClientListSchema>;

const CompanyName = NameText();
const ContactEmail = EmailAddress();
const ContactName = NameText();
const Phone = StoredPhone();
const PackageNameText = Type.String({ minLength: 1, maxLength: 100 });

const clientWritable = {
  user_id: Nullable(CrmUuid),
  company_name: CompanyName,
  contact_name: Nullable(ContactName),
  contact_email: ContactEmail,
  contact_phone: Nullable(Phone),
  business_type: BusinessTypeSchema,
  /** Any package name; the fee follows it (unknown names cost the default 50). */
  package_name: Nullable(PackageNameText),
  subscription_status: SubscriptionStatusSchema,
  next_billing_date: Nullable(CrmDate),
  registration_date: CrmDateTime,
  onboarding_completed: Type.Boolean(),
  employees_count: EmployeesCount(),
  assigned_accountant_id: Nullable(CrmUuid),
};

/** Add Client. Defaults: business_type limited, subscription_status pending, registration now, 0 employees. */
export const ClientCreateBodySchema = Type.Object(
  {
    company_name: CompanyName,
    contact_email: ContactEmail,
    user_id: Type.Optional(clientWritable.user_id),
    contact_name: Type.Optional(clientWritable.contact_name),
    contact_phone: Type.Optional(clientWritable.contact_phone),
    business_type: Type.Optional(clientWritable.business_type),
    package_name: Type.Optional(clientWritable.package_name),
    subscription_status: Type.Optional(clientWritable.subscription_status),
    next_billing_date: Type.Optional(clientWritable.next_billing_date),
    registration_date: Type.Optional(clientWritable.registration_date),
    onboarding_completed: Type.Optional(clientWritable.onboarding_completed),
    employees_count: Type.Optional(clientWritable.employees_count),
    assigned_accountant_id: Type.Optional(clientWritable.assigned_accountant_id),
  },
  { additionalProperties: false },
);
export type ClientCreateBody = Static<typeof ClientCreateBodySchema>;

/** Edit a client: any subset of the writable fields (at least one). */
export const ClientUpdateBodySchema = Type.Partial(Type.Object(clientWritable), { additionalProperties: false, minProperties: 1 });
export type ClientUpdateBody = Static<typeof ClientUpdateBodySchema>;

/**
 * PATCH /clients/mine: the signed-in client edits their own business profile. Only these fields
 * (never e-mail, status, package, fee, billing date or assignment); any subset, at least one. Types
 * are loose on purpose: crm checks the values and answers each field with a message from
 * CLIENT_PROFILE_MESSAGES (proto/src/rules/client-profile.ts) rather than a schema error.
 */
export const ClientProfileBodySchema = Type.Object(
  {
    company_name: Type.Optional(Type.String({ maxLength: 1000 })),
    contact_name: Type.Optional(Type.String({ maxLength: 1000 })),
    /** Null or '' clears it (the profile then is not complete). */
    contact_phone: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
    business_type: Type.Optional(Type.String({ maxLength: 100 })),
    employees_count: Type.Optional(Type.Number()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ClientProfileBody = Static<typeof ClientProfileBodySchema>;

/**
 * The onboarding checklist's "Complete your business profile": a real business and contact name
 * (not the placeholders) and a phone number. Business type and employees always hold a value; the
 * client confirms them in the same form.
 */
export function isClientProfileComplete(c: Pick<Client, 'company_name' | 'contact_name' | 'contact_phone'>): boolean {
  const name = c.company_name.trim();
  const contact = (c.contact_name ?? '').trim();
  return (
    name !== '' &&
    name !== CLIENT_PLACEHOLDERS.companyName &&
    contact !== '' &&
    contact !== CLIENT_PLACEHOLDERS.contactName &&
    Boolean(c.contact_phone?.trim())
  );
}
