// Identity's HTTP routes for people, under the gateway. No schemas here: browser pages import these.

/** HTTP routes of identity for people, under the gateway. */
export const IDENTITY_ROUTES = {
  signup: '/api/identity/auth/signup',
  login: '/api/identity/auth/login',
  refresh: '/api/identity/auth/refresh',
  logout: '/api/identity/auth/logout',
  me: '/api/identity/auth/me',
  invitations: '/api/identity/invitations',
  cancelInvitation: (id: string) => `/api/identity/invitations/${id}/cancel`,
  resendInvitation: (id: string) => `/api/identity/invitations/${id}/resend`,
  invitationByToken: (token: string) => `/api/identity/invitations/lookup?token=${encodeURIComponent(token)}`,
  acceptInvitation: '/api/identity/invitations/accept',
  staff: '/api/identity/staff',
  deactivateStaff: (userId: string) => `/api/identity/staff/${userId}/deactivate`,
  /** What a person can still reach (issue 32, the leaver view). */
  staffAccess: (userId: string) => `/api/identity/staff/${userId}/access`,
  users: '/api/identity/users',
  outgoingMail: '/api/identity/outgoing-mail',
  lockouts: '/api/identity/security/lockouts',
  forgotPassword: '/api/identity/auth/forgot-password',
  resetPassword: '/api/identity/auth/reset-password',
  resetLookup: (token: string) => `/api/identity/auth/reset-password/lookup?token=${encodeURIComponent(token)}`,
  changePassword: '/api/identity/auth/password',
  /** Two-factor sign-in (issue 32). */
  twoFactor: '/api/identity/auth/two-factor',
  twoFactorTotp: '/api/identity/auth/two-factor/totp',
  twoFactorTotpConfirm: '/api/identity/auth/two-factor/totp/confirm',
  twoFactorRecoveryCodes: '/api/identity/auth/two-factor/recovery-codes',
  twoFactorDisable: '/api/identity/auth/two-factor/disable',
  twoFactorPolicy: '/api/identity/security/two-factor-policy',
  passkeys: '/api/identity/auth/passkeys',
  passkey: (id: string) => `/api/identity/auth/passkeys/${id}`,
  passkeyRegisterOptions: '/api/identity/auth/passkeys/register/options',
  passkeyRegister: '/api/identity/auth/passkeys/register',
  passkeySignInOptions: '/api/identity/auth/passkeys/sign-in/options',
  passkeySignIn: '/api/identity/auth/passkeys/sign-in',
} as const;
