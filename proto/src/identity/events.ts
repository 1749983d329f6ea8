import { Type } from '@sinclair/typebox';

// identity's events: their data schemas, shared by the producer and every consumer.
export const AdminSignedInSchema = Type.Object({
  adminId: Type.String(),
  username: Type.String(),
  sessionId: Type.String(),
  ip: Type.Union([Type.String(), Type.Null()]),
});
export const SessionRevokedSchema = Type.Object({
  sessionId: Type.String(),
  subjectId: Type.String(),
  /** Seconds since epoch after which no token of this session could be valid anyway. */
  until: Type.Integer(),
});
export const SubjectAccessRevokedSchema = Type.Object({
  subjectId: Type.String(),
  /** Tokens issued before this instant (seconds) are refused. */
  issuedBefore: Type.Integer(),
});

export const StaffJoinedSchema = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  role: Type.String(),
  invitationId: Type.String(),
});
export const InvitationCreatedSchema = Type.Object({
  invitationId: Type.String(),
  email: Type.String(),
  role: Type.String(),
  expiresAt: Type.String(),
});
export const UserRegisteredSchema = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  firstName: Type.Union([Type.String(), Type.Null()]),
  lastName: Type.Union([Type.String(), Type.Null()]),
  companyName: Type.Union([Type.String(), Type.Null()]),
  /** What the sign-up asked about the business (issue 33); absent in events from before it. */
  businessType: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  companyNumber: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  phone: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
export const RoleChangedSchema = Type.Object({
  userId: Type.String(),
  role: Type.String(),
  isActive: Type.Boolean(),
  /** Who holds the role now, for read models (e.g. Team Members counts, accountant names). */
  email: Type.String(),
  name: Type.String(),
});

/**
 * A second factor was turned off (issue 32): an administrator's reset or the owner's own; kept in the
 * outbox as the record. `account: 'admin_panel'` when `userId` is an admin panel account's id.
 */
export const SecondFactorResetSchema = Type.Object({
  userId: Type.String(),
  account: Type.Optional(Type.Literal('admin_panel')),
});

export const IDENTITY_EVENTS = {
  'identity.admin_signed_in': AdminSignedInSchema,
  'identity.session_revoked': SessionRevokedSchema,
  'identity.subject_access_revoked': SubjectAccessRevokedSchema,
  'identity.staff_joined': StaffJoinedSchema,
  'identity.invitation_created': InvitationCreatedSchema,
  'identity.user_registered': UserRegisteredSchema,
  'identity.role_changed': RoleChangedSchema,
  'identity.second_factor_reset': SecondFactorResetSchema,
} as const;
