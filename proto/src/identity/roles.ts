import { Type, type Static } from '@sinclair/typebox';
import { PERMISSION_KEYS } from '../permissions.js';
import { RoleNameSchema } from './people.js';

// The User Roles page (/admin/roles): each role with what it may do (proto/src/permissions.ts) and
// who holds it; grants and revocations. Administrators only.

export const ROLES_ROUTES = {
  list: '/api/identity/roles',
  grants: '/api/identity/roles/grants',
  /** DELETE: revoke a person's grant of a role. */
  personGrant: (role: string, userId: string) => `/api/identity/roles/${role}/people/${userId}`,
  /** DELETE: deactivate an admin panel account (the admin role's other holders). */
  adminAccount: (adminId: string) => `/api/identity/roles/admin-accounts/${adminId}`,
} as const;

const Uuid = Type.String({ format: 'uuid' });
const PermissionKeySchema = Type.Union(PERMISSION_KEYS.map((k) => Type.Literal(k)));

export const RoleHolderSchema = Type.Object({
  /** A person (e-mail sign-in, a user_roles grant) or an admin panel account (admin_users). */
  kind: Type.Union([Type.Literal('person'), Type.Literal('admin_account')]),
  /** The person's user id, or the admin panel account's id. */
  id: Uuid,
  name: Type.String(),
  /** A person's e-mail; null for an admin panel account. */
  email: Type.Union([Type.String(), Type.Null()]),
  /** An admin panel account's username; null for a person. */
  username: Type.Union([Type.String(), Type.Null()]),
  since: Type.String({ format: 'date-time' }),
});
export type RoleHolder = Static<typeof RoleHolderSchema>;

/** Holders listed per role: a practice has a handful of staff but may have thousands of clients. */
export const ROLE_HOLDERS_LIMIT = 200;

export const RoleSummarySchema = Type.Object({
  role: RoleNameSchema,
  description: Type.String(),
  permissions: Type.Array(PermissionKeySchema),
  /** The most recent holders, at most ROLE_HOLDERS_LIMIT (every client holds 'client'). */
  holders: Type.Array(RoleHolderSchema),
  /** How many hold the role in all. */
  holder_count: Type.Integer({ minimum: 0 }),
});
export type RoleSummary = Static<typeof RoleSummarySchema>;

export const RoleListSchema = Type.Object({
  roles: Type.Array(RoleSummarySchema),
  /** Active admin panel accounts with the admin role plus people with an active admin grant. */
  active_admins: Type.Integer(),
});
export type RoleList = Static<typeof RoleListSchema>;

/** Grant a role to a registered person, named by user id or by e-mail. */
export const GrantRoleBodySchema = Type.Object(
  {
    role: RoleNameSchema,
    user_id: Type.Optional(Uuid),
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 254 })),
  },
  { additionalProperties: false },
);
export type GrantRoleBody = Static<typeof GrantRoleBodySchema>;

export const PersonGrantParamsSchema = Type.Object({ role: RoleNameSchema, userId: Uuid });
export const AdminAccountParamsSchema = Type.Object({ adminId: Uuid });
