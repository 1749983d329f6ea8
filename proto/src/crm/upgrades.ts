import { Type, type Static } from '@sinclair/typebox';
import { SafeText } from '../text.js';
import { CrmDateTime, CrmUuid, Nullable, PageInfo, PageQuery, literals } from './common.js';

export const UPGRADE_STATUSES = ['pending', 'approved', 'rejected', 'completed'] as const;
export type UpgradeStatus = (typeof UPGRADE_STATUSES)[number];
export const UpgradeStatusSchema = literals(UPGRADE_STATUSES);

/**
 * Allowed moves: pending → approved | rejected; approved → completed | rejected. Completing one
 * moves the client to the new package (and its fee). Rejected and completed are final.
 */
export const UPGRADE_TRANSITIONS: Record<UpgradeStatus, readonly UpgradeStatus[]> = {
  pending: ['approved', 'rejected'],
  approved: ['completed', 'rejected'],
  rejected: [],
  completed: [],
};

export const ClientUpgradeSchema = Type.Object({
  id: CrmUuid,
  client_id: CrmUuid,
  client_company_name: Type.String(),
  from_package: Nullable(Type.String()),
  to_package: Type.String(),
  /** Monthly fees of both packages, GBP. */
  from_monthly_fee: Type.Number(),
  to_monthly_fee: Type.Number(),
  status: UpgradeStatusSchema,
  notes: Nullable(Type.String()),
  requested_at: CrmDateTime,
  decided_at: Nullable(CrmDateTime),
});
export type ClientUpgrade = Static<typeof ClientUpgradeSchema>;

export const UpgradeListQuerySchema = Type.Object(
  { status: Type.Optional(UpgradeStatusSchema), client_id: Type.Optional(CrmUuid), ...PageQuery },
  { additionalProperties: false },
);
export type UpgradeListQuery = Static<typeof UpgradeListQuerySchema>;

/** Newest request first. */
export const UpgradeListSchema = Type.Object({ upgrades: Type.Array(ClientUpgradeSchema), ...PageInfo });
export type UpgradeList = Static<typeof UpgradeListSchema>;

/** Request a package change for a client; from_package is the client's current package. */
export const UpgradeCreateBodySchema = Type.Object(
  {
    client_id: CrmUuid,
    to_package: Type.String({ minLength: 1, maxLength: 100 }),
    notes: Type.Optional(Nullable(SafeText({ maxLength: 5000 }))),
  },
  { additionalProperties: false },
);
export type UpgradeCreateBody = Static<typeof UpgradeCreateBodySchema>;

/** Decide on a request (see UPGRADE_TRANSITIONS); a move the rules do not allow is a 409. */
export const UpgradeUpdateBodySchema = Type.Object(
  { status: Type.Optional(UpgradeStatusSchema), notes: Type.Optional(Nullable(SafeText({ maxLength: 5000 }))) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpgradeUpdateBody = Static<typeof UpgradeUpdateBodySchema>;
