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
});
export type AdminLoginReply = Static<typeof AdminLoginReplySchema>;

export const AdminVerifyReplySchema = Type.Object({
  success: Type.Boolean(),
  user: AdminUserSchema,
  expires_at: Type.String({ format: 'date-time' }),
});
export type AdminVerifyReply = Static<typeof AdminVerifyReplySchema>;

export const AdminLogoutReplySchema = Type.Object({ success: Type.Boolean(), message: Type.String() });
export type AdminLogoutReply = Static<typeof AdminLogoutReplySchema>;

export { ADMIN_AUTH_ROUTES } from './admin-routes.js';
