import { Type, type Static } from '@sinclair/typebox';
import { PageNumber } from '../text.js';
import { NAME_MAX } from '../rules/limits.js';
import { EmailAddress } from '../rules/schemas.js';
import { BUSINESS_TYPES, INVITABLE_ROLES, INVITATION_STATUSES, ROLES } from '../constants.js';

const Email = EmailAddress();
const Password = Type.String({ minLength: 1, maxLength: 200 });
const Name = Type.String({ maxLength: 100 });
const Uuid = Type.String({ format: 'uuid' });

export const RoleNameSchema = /*#__PURE__*/ Type.Union(/*#__PURE__*/ ROLES.map((r) => Type.Literal(r)));
export const InvitableRoleSchema = /*#__PURE__*/ Type.Union(/*#__PURE__*/ INVITABLE_ROLES.map((r) => Type.Literal(r)));
export const InvitationStatusSchema = /*#__PURE__*/ Type.Union(/*#__PURE__*/ INVITATION_STATUSES.map((s) => Type.Literal(s)));

// ---- accounts and sessions for people (staff and clients) ----

export const SignupBodySchema = Type.Object(
  {
    email: Email,
    password: Password,
    first_name: Type.Optional(Name),
    last_name: Type.Optional(Name),
    company_name: Type.Optional(Type.String({ maxLength: NAME_MAX })),
    /** Issue 33: the business first (a limited company must give its name), its number and a phone. */
    business_type: Type.Optional(Type.Union(BUSINESS_TYPES.map((b) => Type.Literal(b)))),
    company_number: Type.Optional(Type.String({ maxLength: 20 })),
    phone: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);
export type SignupBody = Static<typeof SignupBodySchema>;

/** Sign-up texts of issue 33 (ours: the spec gives none for these fields). */
export const SIGNUP_MESSAGES = {
  companyNameRequired: 'Please enter your company name: a limited company or LLP signs up under its registered name.',
  businessTypeRequired: 'Please choose your type of business.',
  choosing: (pkg: string) => `You are signing up for the ${pkg} package.`,
} as const;

export const LoginBodySchema = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Password,
    /** 'staff' refuses (and ends the session of) anyone without an active admin, staff or manager grant. */
    portal: Type.Optional(Type.Union([Type.Literal('staff'), Type.Literal('client')])),
    /** The second factor, when the person has turned it on (issue 32): a 6-digit code or a recovery code. */
    totp_code: Type.Optional(Type.String({ maxLength: 12 })),
    recovery_code: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBodySchema>;

export const ProfileSchema = Type.Object({
  user_id: Uuid,
  email: Type.String(),
  first_name: Type.Union([Type.String(), Type.Null()]),
  last_name: Type.Union([Type.String(), Type.Null()]),
  company_name: Type.Union([Type.String(), Type.Null()]),
  role: RoleNameSchema,
  created_at: Type.String({ format: 'date-time' }),
});
export type Profile = Static<typeof ProfileSchema>;

export const MeSchema = Type.Object({
  user: ProfileSchema,
  /** Active role grants. */
  roles: Type.Array(RoleNameSchema),
  /** The best active staff role (admin > manager > staff), or null. */
  staff_role: Type.Union([RoleNameSchema, Type.Null()]),
  session_expires_at: Type.String({ format: 'date-time' }),
  /** Where /login takes this person (homeFor): '/work' for staff-side people, '/dashboard' for clients. */
  home: Type.Optional(Type.String()),
  /** The practice requires a second factor of this person and they have none yet: only enrolment is open (issue 32). */
  two_factor_enrolment_required: Type.Optional(Type.Boolean()),
});
export type Me = Static<typeof MeSchema>;

export const LoginReplySchema = Type.Intersect([
  MeSchema,
  Type.Object({
    success: Type.Boolean(),
    message: Type.String(),
    /** Access token for API clients (bearer); the browser uses the httpOnly cookie. */
    access_token: Type.String(),
  }),
]);
export type LoginReply = Static<typeof LoginReplySchema>;

export const MessageReplySchema = Type.Object({ success: Type.Boolean(), message: Type.String() });
export type MessageReply = Static<typeof MessageReplySchema>;

// ---- invitations ----

export const InviteBodySchema = Type.Object({ email: Email, role: InvitableRoleSchema }, { additionalProperties: false });
export type InviteBody = Static<typeof InviteBodySchema>;

export const InvitationSchema = Type.Object({
  id: Uuid,
  email: Type.String(),
  role: InvitableRoleSchema,
  invited_by: Type.Union([Uuid, Type.Null()]),
  invited_by_name: Type.Union([Type.String(), Type.Null()]),
  /** 'expired' is reported for a pending invitation past its expiry. */
  status: InvitationStatusSchema,
  expires_at: Type.String({ format: 'date-time' }),
  created_at: Type.String({ format: 'date-time' }),
  /** How the link was sent: by e-mail, or kept in the outgoing-mail log because SMTP is not configured. */
  delivery: Type.Union([Type.Literal('smtp'), Type.Literal('log'), Type.Literal('failed'), Type.Null()]),
});
export type Invitation = Static<typeof InvitationSchema>;

/**
 * The answer to creating or re-sending an invitation: the only time its sign-up link is shown, to the
 * person who made it (the server keeps only a hash of the token; lists never carry a link).
 */
export const InvitationWithLinkSchema = Type.Intersect([InvitationSchema, Type.Object({ invite_url: Type.String() })]);
export type InvitationWithLink = Static<typeof InvitationWithLinkSchema>;

/** Optional filter of the invitation list; a role above the caller's own is refused (403). */
export const InvitationListQuerySchema = Type.Object({ role: Type.Optional(InvitableRoleSchema) }, { additionalProperties: false });
export type InvitationListQuery = Static<typeof InvitationListQuerySchema>;

export const InvitationListSchema = Type.Object({
  invitations: Type.Array(InvitationSchema),
  /** False when no SMTP server is configured: e-mails go to the outgoing-mail log instead. */
  smtp_configured: Type.Boolean(),
});
export type InvitationList = Static<typeof InvitationListSchema>;

export const InvitationLookupSchema = Type.Object({
  valid: Type.Boolean(),
  /** Why not, in the spec's words ('Invalid or expired invitation link' / 'This invitation has expired'). */
  message: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  role: Type.Union([InvitableRoleSchema, Type.Null()]),
  expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type InvitationLookup = Static<typeof InvitationLookupSchema>;

export const AcceptInviteBodySchema = Type.Object(
  {
    token: Type.String({ maxLength: 200 }),
    email: Type.Optional(Type.String({ maxLength: 254 })),
    password: Password,
    confirm_password: Type.Optional(Password),
    first_name: Type.Optional(Name),
    last_name: Type.Optional(Name),
  },
  { additionalProperties: false },
);
export type AcceptInviteBody = Static<typeof AcceptInviteBodySchema>;

// ---- passwords ----

export const ForgotPasswordBodySchema = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 254 }) },
  { additionalProperties: false },
);
export type ForgotPasswordBody = Static<typeof ForgotPasswordBodySchema>;

export const ResetPasswordBodySchema = Type.Object(
  { token: Type.String({ maxLength: 200 }), password: Password, confirm_password: Type.Optional(Password) },
  { additionalProperties: false },
);
export type ResetPasswordBody = Static<typeof ResetPasswordBodySchema>;

export const ResetLookupSchema = Type.Object({
  valid: Type.Boolean(),
  message: Type.Union([Type.String(), Type.Null()]),
  /** Staff and administrators' passwords are also checked against the common-password list. */
  is_staff: Type.Boolean(),
});
export type ResetLookup = Static<typeof ResetLookupSchema>;

/** Change password for the signed-in person or admin panel account: the current password is required. */
export const ChangePasswordBodySchema = Type.Object(
  { current_password: Password, new_password: Password, confirm_password: Type.Optional(Password) },
  { additionalProperties: false },
);
export type ChangePasswordBody = Static<typeof ChangePasswordBodySchema>;

// ---- staff ----

export const StaffMemberSchema = Type.Object({
  id: Uuid,
  user_id: Uuid,
  email: Type.String(),
  first_name: Type.Union([Type.String(), Type.Null()]),
  last_name: Type.Union([Type.String(), Type.Null()]),
  role: RoleNameSchema,
  is_active: Type.Boolean(),
  granted_at: Type.String({ format: 'date-time' }),
});
export type StaffMember = Static<typeof StaffMemberSchema>;
export const StaffListSchema = Type.Object({ staff: Type.Array(StaffMemberSchema) });

/** What a person can still reach (issue 32, the leaver view): ids and dates, never a secret; all empty after deactivation. */
export const StillReachableSchema = Type.Object({
  user_id: Uuid,
  roles: Type.Array(Type.Object({ role: Type.String(), granted_at: Type.String({ format: 'date-time' }) })),
  sessions: Type.Array(
    Type.Object({
      id: Uuid,
      created_at: Type.String({ format: 'date-time' }),
      last_used_at: Type.String({ format: 'date-time' }),
      expires_at: Type.String({ format: 'date-time' }),
      ip: Type.Union([Type.String(), Type.Null()]),
      user_agent: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  invitations_sent: Type.Array(
    Type.Object({ id: Uuid, email: Type.String(), role: Type.String(), expires_at: Type.String({ format: 'date-time' }) }),
  ),
  password_reset_links: Type.Array(
    Type.Object({ created_at: Type.String({ format: 'date-time' }), expires_at: Type.String({ format: 'date-time' }) }),
  ),
  calendar_feeds: Type.Array(Type.Object({ service: Type.String(), since: Type.String({ format: 'date-time' }) })),
  nothing_left: Type.Boolean(),
});
export type StillReachable = Static<typeof StillReachableSchema>;

// ---- user list ----

export const UserRowSchema = Type.Object({
  user_id: Uuid,
  name: Type.String(),
  email: Type.String(),
  company_name: Type.Union([Type.String(), Type.Null()]),
  role: RoleNameSchema,
  status: Type.Union([Type.Literal('active'), Type.Literal('inactive'), Type.Literal('locked')]),
  created_at: Type.String({ format: 'date-time' }),
});
export type UserRow = Static<typeof UserRowSchema>;
export const UserListSchema = Type.Object({
  users: Type.Array(UserRowSchema),
  total: Type.Integer(),
  stats: Type.Object({ total_users: Type.Integer(), active_clients: Type.Integer(), new_this_month: Type.Integer() }),
});
export type UserList = Static<typeof UserListSchema>;
export const UserListQuerySchema = Type.Object({
  page: PageNumber(),
  page_size: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  search: Type.Optional(Type.String({ maxLength: 200 })),
});

// ---- outgoing mail log (no SMTP configured) ----

export const OutgoingMailSchema = Type.Object({
  id: Uuid,
  to: Type.String(),
  subject: Type.String(),
  body: Type.String(),
  transport: Type.Union([Type.Literal('smtp'), Type.Literal('log')]),
  status: Type.Union([Type.Literal('sent'), Type.Literal('logged'), Type.Literal('failed')]),
  error: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
});
export type OutgoingMail = Static<typeof OutgoingMailSchema>;
export const OutgoingMailListSchema = Type.Object({ mail: Type.Array(OutgoingMailSchema), smtp_configured: Type.Boolean() });

// Route strings live in a schema-free module, so a page that needs one does not pull in TypeBox.
export { IDENTITY_ROUTES } from './routes.js';
