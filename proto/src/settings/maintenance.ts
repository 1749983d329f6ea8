// Which pages the maintenance switch covers. Its own module, free of schemas: the public frame reads it
// in the entry chunk, and importing it must not bring TypeBox and the settings schemas to the home page.

/**
 * Pages that stay open while maintenance is on: the admin area and its sign-in (their own layout,
 * never behind the switch), the staff portal and its sign-in and sign-up, and the admin-only user
 * list. Every other page (public and client) shows the maintenance page. APIs keep working.
 */
export const MAINTENANCE_OPEN_PATHS = [
  '/admin',
  '/admin-login',
  '/staff-login',
  '/staff/login',
  '/staff/signup',
  '/staff/dashboard',
  '/user-management',
] as const;

export function isOpenDuringMaintenance(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return MAINTENANCE_OPEN_PATHS.some((p) => path === p || path.startsWith(`${p}/`));
}
