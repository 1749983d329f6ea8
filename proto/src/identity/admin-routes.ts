// The admin-auth routes, under the gateway. No schemas here: browser pages import these.

/** HTTP routes of the admin-auth function, under the gateway. */
export const ADMIN_AUTH_ROUTES = {
  login: '/api/identity/admin/login',
  verify: '/api/identity/admin/session',
  refresh: '/api/identity/admin/refresh',
  logout: '/api/identity/admin/logout',
  changePassword: '/api/identity/admin/password',
} as const;
