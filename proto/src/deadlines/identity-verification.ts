import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PageNumber } from '../text.js';

// Identity verification of directors and PSCs with Companies House (ECCTA 2023): the practice's view
// (GET /api/deadlines/identity-verification). Browser-safe.

export const IDENTITY_VERIFICATION_ROUTES = {
  /** GET: every person of every visible client with their status and due date, filtered and paged. */
  list: '/api/deadlines/identity-verification',
} as const;

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const IsoDate = Type.String({ format: 'date' });

export const IDV_STATUSES = [
  { value: 'verified', label: 'Verified' },
  { value: 'due', label: 'Due' },
  { value: 'overdue', label: 'Overdue' },
  { value: 'unknown', label: 'Not yet known' },
] as const;
export type IdvStatusValue = (typeof IDV_STATUSES)[number]['value'];

export const IDV_FILTERS = [
  { value: 'not_verified', label: 'Not verified' },
  { value: 'overdue', label: 'Overdue' },
  { value: 'due_30', label: 'Due in 30 days' },
  { value: 'unknown', label: 'Not yet known' },
  { value: 'verified', label: 'Verified' },
  { value: 'all', label: 'Everyone' },
] as const;
export type IdvFilter = (typeof IDV_FILTERS)[number]['value'];

export const IDV_PERSON_KINDS = [
  { value: 'director', label: 'Director' },
  { value: 'psc', label: 'Person with significant control' },
  { value: 'relevant_legal_entity', label: 'Relevant legal entity' },
] as const;

export const IdentityPersonSchema = Type.Object({
  client_id: Type.String(),
  client_name: Type.String(),
  assigned_accountant_id: Nullable(Type.String()),
  /** The AML file's person key (officer:<role>:<name> or psc:<name>). */
  person_key: Type.String(),
  name: Type.String(),
  person_kind: literals(IDV_PERSON_KINDS.map((k) => k.value)),
  status: literals(IDV_STATUSES.map((s) => s.value)),
  verified_on: Nullable(IsoDate),
  /** The ACSP (or the practice) that verified, when known. */
  verified_by: Nullable(Type.String()),
  verified_source: Nullable(literals(['companies_house', 'practice'] as const)),
  due_on: Nullable(IsoDate),
  /** Companies House's date, or derived by the rules. */
  due_source: Nullable(literals(['companies_house', 'rule'] as const)),
  /** "verified 2 Mar 2026", "due 14 Dec 2026", "overdue since 1 Sep 2026", "due 4 Dec 2026 (14 days, derived)". */
  status_text: Type.String(),
});
export type IdentityPerson = Static<typeof IdentityPersonSchema>;

export const IdentityListQuerySchema = Type.Object(
  {
    filter: Type.Optional(literals(IDV_FILTERS.map((f) => f.value))),
    /** A team member's user id; 'none' for clients without an accountant. */
    assignee_id: Type.Optional(Type.String({ maxLength: 64 })),
    client_id: Type.Optional(Type.String({ maxLength: 64 })),
    page: PageNumber(),
    page_size: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  },
  { additionalProperties: false },
);
export type IdentityListQuery = Static<typeof IdentityListQuerySchema>;

export const IdentityListSchema = Type.Object({
  people: Type.Array(IdentityPersonSchema),
  total: Type.Integer({ minimum: 0 }),
  total_capped: Type.Boolean(),
  page: Type.Integer({ minimum: 1 }),
  page_size: Type.Integer({ minimum: 1 }),
  today: IsoDate,
});
export type IdentityList = Static<typeof IdentityListSchema>;

/** "blocked: 2 people not verified" on a confirmation statement that cannot be filed yet. */
export function blockedText(n: number): string {
  return `blocked: ${n} ${n === 1 ? 'person' : 'people'} not verified`;
}
