import { Type, type Static } from '@sinclair/typebox';
import { SubscriptionStatusSchema } from './clients.js';
import { CrmDate, CrmUuid, Nullable } from './common.js';
import { LeadStageSchema } from './leads.js';
import { TaskStatusSchema } from './tasks.js';

/** The header search 'Search clients, leads, tasks...': case-insensitive substring. */
export const SearchQuerySchema = Type.Object(
  {
    q: Type.String({ minLength: 1, maxLength: 200 }),
    /** Per group, at most this many (default 5). */
    limit: Type.Integer({ minimum: 1, maximum: 20, default: 5 }),
  },
  { additionalProperties: false },
);
export type SearchQuery = Static<typeof SearchQuerySchema>;

export const SearchResultSchema = Type.Object({
  /** Matched on company name, contact e-mail, contact name. */
  clients: Type.Array(
    Type.Object({
      id: CrmUuid,
      company_name: Type.String(),
      contact_name: Nullable(Type.String()),
      contact_email: Type.String(),
      subscription_status: SubscriptionStatusSchema,
    }),
  ),
  /** Matched on name, e-mail, company name. Always empty for an accountant. */
  leads: Type.Array(
    Type.Object({
      id: CrmUuid,
      name: Type.String(),
      email: Nullable(Type.String()),
      company_name: Nullable(Type.String()),
      stage: LeadStageSchema,
    }),
  ),
  /** Matched on title. */
  tasks: Type.Array(
    Type.Object({
      id: CrmUuid,
      title: Type.String(),
      status: TaskStatusSchema,
      due_date: Nullable(CrmDate),
      client_company_name: Nullable(Type.String()),
    }),
  ),
});
export type SearchResult = Static<typeof SearchResultSchema>;
