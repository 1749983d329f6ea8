import { Type, type Static } from '@sinclair/typebox';
import { SafeText } from '../text.js';
import { EmailAddress, NameText, StoredPhone } from '../rules/schemas.js';
import { LEAD_STAGES } from '../constants.js';
import { BusinessTypeSchema, ClientSchema, SubscriptionStatusSchema } from './clients.js';
import { CrmDate, CrmDateTime, CrmUuid, Nullable, PageInfo, PageQuery, SearchText, literals } from './common.js';

export const LeadStageSchema = literals(LEAD_STAGES);

/** A sales enquiry (spec section 3 `leads`), plus what the external CRM import keeps. */
export const LeadSchema = Type.Object({
  id: CrmUuid,
  name: Type.String(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  company_name: Nullable(Type.String()),
  stage: LeadStageSchema,
  business_type: Nullable(BusinessTypeSchema),
  quote_amount: Nullable(Type.Number()),
  /** Where it came from: 'GoHighLevel' for imports, else what staff typed (Website, Referral, ...). */
  source: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  notes: Nullable(Type.String()),
  /** The contact id in the external CRM, for imported leads. */
  external_id: Nullable(Type.String()),
  /** Set once the lead was converted into a client. */
  converted_client_id: Nullable(CrmUuid),
  created_at: CrmDateTime,
  updated_at: CrmDateTime,
});
export type Lead = Static<typeof LeadSchema>;

export const LeadListQuerySchema = Type.Object(
  {
    /** Case-insensitive on name, e-mail and company name. */
    search: Type.Optional(SearchText),
    stage: Type.Optional(LeadStageSchema),
    source: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    /** Created on or after / on or before this London day (YYYY-MM-DD): the leads report's range. */
    created_from: Type.Optional(CrmDate),
    created_to: Type.Optional(CrmDate),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type LeadListQuery = Static<typeof LeadListQuerySchema>;

/** Newest first by created_at. */
export const LeadListSchema = Type.Object({ leads: Type.Array(LeadSchema), ...PageInfo });
export type LeadList = Static<typeof LeadListSchema>;

const leadWritable = {
  name: NameText(),
  email: EmailAddress(),
  phone: Nullable(StoredPhone()),
  company_name: Nullable(NameText()),
  stage: LeadStageSchema,
  business_type: Nullable(BusinessTypeSchema),
  quote_amount: Nullable(Type.Number({ minimum: 0, maximum: 10_000_000 })),
  source: Nullable(Type.String({ minLength: 1, maxLength: 100 })),
  tags: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 }),
  notes: Nullable(SafeText({ maxLength: 5000 })),
};

/** Add Lead. Stage defaults to new_enquiry. A second lead with the same e-mail is a 409. */
export const LeadCreateBodySchema = Type.Object(
  {
    name: leadWritable.name,
    email: leadWritable.email,
    phone: Type.Optional(leadWritable.phone),
    company_name: Type.Optional(leadWritable.company_name),
    stage: Type.Optional(leadWritable.stage),
    business_type: Type.Optional(leadWritable.business_type),
    quote_amount: Type.Optional(leadWritable.quote_amount),
    source: Type.Optional(leadWritable.source),
    tags: Type.Optional(leadWritable.tags),
    notes: Type.Optional(leadWritable.notes),
  },
  { additionalProperties: false },
);
export type LeadCreateBody = Static<typeof LeadCreateBodySchema>;

/** Edit a lead or move it to another stage (any stage to any other; a converted lead stays won). */
export const LeadUpdateBodySchema = Type.Partial(Type.Object(leadWritable), { additionalProperties: false, minProperties: 1 });
export type LeadUpdateBody = Static<typeof LeadUpdateBodySchema>;

/**
 * Convert a won lead into a client. The client takes the lead's name, e-mail, phone, company and
 * business type; these fields fill in or override the rest. Only a won lead converts, once (409).
 */
export const LeadConvertBodySchema = Type.Object(
  {
    /** Defaults to the lead's company name, else its name. */
    company_name: Type.Optional(NameText()),
    package_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    business_type: Type.Optional(BusinessTypeSchema),
    /** Defaults to pending: the client has not paid yet. */
    subscription_status: Type.Optional(SubscriptionStatusSchema),
    assigned_accountant_id: Type.Optional(Nullable(CrmUuid)),
  },
  { additionalProperties: false },
);
export type LeadConvertBody = Static<typeof LeadConvertBodySchema>;

export const LeadConvertReplySchema = Type.Object({ lead: LeadSchema, client: ClientSchema });
export type LeadConvertReply = Static<typeof LeadConvertReplySchema>;
