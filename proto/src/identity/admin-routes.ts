// The admin-auth routes, under the gateway. No schemas here: browser pages import these.

/** HTTP routes of the admin-auth function, under the gateway. */
export const ADMIN_AUTH_ROUTES = {
  login: '/api/identity/admin/login',
  verify: '/api/identity/admin/session',
  refresh: '/api/identity/admin/refresh',
  logout: '/api/identity/admin/logout',
  changePassword: '/api/identity/admin/password',
  // The admin panel account's own two-factor sign-in (issue 32).
  twoFactor: '/api/identity/admin/two-factor',
  twoFactorTotp: '/api/identity/admin/two-factor/totp',
  twoFactorTotpConfirm: '/api/identity/admin/two-factor/totp/confirm',
  twoFactorRecoveryCodes: '/api/identity/admin/two-factor/recovery-codes',
  twoFactorDisable: '/api/identity/admin/two-factor/disable',
  /** Another administrator's reset of an admin panel account's second factor. */
  adminAccountTwoFactor: (adminId: string) => `/api/identity/roles/admin-accounts/${encodeURIComponent(adminId)}/two-factor`,
} as const;
