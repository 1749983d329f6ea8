import { Type, type Static } from '@sinclair/typebox';
import { ROLES } from '../constants.js';

export const RoleSchema = /*#__PURE__*/ Type.Union(/*#__PURE__*/ ROLES.map((r) => Type.Literal(r)));

export const AdminUserSchema = Type.Object({
  id: Type.String(),
  username: Type.String(),
  role: RoleSchema,
});
export type AdminUser = Static<typeof AdminUserSchema>;

export const AdminLoginBodySchema = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 100 }),
    password: Type.String({ minLength: 1, maxLength: 200 }),
    /** The second factor, when the account has turned it on (issue 32): a 6-digit code or a recovery code. */
    totp_code: Type.Optional(Type.String({ maxLength: 12 })),
    recovery_code: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);
export type AdminLoginBody = Static<typeof AdminLoginBodySchema>;

export const AdminLoginReplySchema = Type.Object({
  success: Type.Boolean(),
  message: Type.String(),
  user: AdminUserSchema,
  /** The access token, for API clients that send a bearer header; the browser uses the httpOnly cookie. */
  session_token: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
  /** The practice requires a second factor and this account has none yet: only its set-up answers (issue 32). */
  two_factor_enrolment_required: Type.Optional(Type.Boolean()),
});
export type AdminLoginReply = Static<typeof AdminLoginReplySchema>;

export const AdminVerifyReplySchema = Type.Object({
  success: Type.Boolean(),
  user: AdminUserSchema,
  expires_at: Type.String({ format: 'date-time' }),
  two_factor_enrolment_required: Type.Optional(Type.Boolean()),
});

/** Whether an admin panel account's two-factor sign-in is on, and how many recovery codes are left. */
export const AdminTwoFactorStatusSchema = Type.Object({ totp_enabled: Type.Boolean(), recovery_codes_left: Type.Integer() });
export type AdminVerifyReply = Static<typeof AdminVerifyReplySchema>;

export const AdminLogoutReplySchema = Type.Object({ success: Type.Boolean(), message: Type.String() });
export type AdminLogoutReply = Static<typeof AdminLogoutReplySchema>;

export { ADMIN_AUTH_ROUTES } from './admin-routes.js';
