/**
 * API routes the gateway lets through without an access token (sign-in, refresh, public data).
 * Every other /api route needs a valid token at the gateway, and the owning service checks it again.
 */
export type PublicApiRoute =
  | { method: string; path: string }
  /** Any single path segment after the prefix (e.g. a signed file address: the service checks the signature). */
  | { method: string; prefix: string };

export const PUBLIC_API_ROUTES: ReadonlyArray<PublicApiRoute> = [
  { method: 'POST', path: '/api/identity/admin/login' },
  // Passkey sign-in (issue 32): the options (a challenge) and the signed answer.
  { method: 'POST', path: '/api/identity/auth/passkeys/sign-in/options' },
  { method: 'POST', path: '/api/identity/auth/passkeys/sign-in' },
  { method: 'POST', path: '/api/identity/admin/refresh' },
  { method: 'POST', path: '/api/identity/admin/logout' },
  { method: 'GET', path: '/api/public/config' },
  { method: 'POST', path: '/api/identity/auth/signup' },
  { method: 'POST', path: '/api/identity/auth/login' },
  { method: 'POST', path: '/api/identity/auth/refresh' },
  { method: 'POST', path: '/api/identity/auth/logout' },
  { method: 'GET', path: '/api/identity/invitations/lookup' },
  { method: 'POST', path: '/api/identity/invitations/accept' },
  { method: 'POST', path: '/api/identity/auth/forgot-password' },
  { method: 'POST', path: '/api/identity/auth/reset-password' },
  { method: 'GET', path: '/api/identity/auth/reset-password/lookup' },
  { method: 'GET', prefix: '/api/documents/files/' },
  // The providers' OAuth redirects: the one-time state authenticates them (integrations checks it).
  { method: 'GET', path: '/api/integrations/xero/callback' },
  { method: 'GET', path: '/api/integrations/quickbooks/callback' },
  { method: 'GET', path: '/api/integrations/mtd/callback' },
  { method: 'GET', path: '/api/billing/packages' },
  // Gateways load the practice settings and the maintenance switch from it before anyone signs in.
  { method: 'GET', path: '/api/settings/public' },
  // Calendar apps fetch a member of staff's feed; the long random token in the address is the key (deadlines checks it).
  { method: 'GET', prefix: '/api/deadlines/feed/' },
  // The sign-up form looks a company number up before the visitor has an account (rate limited below).
  { method: 'POST', path: '/api/deadlines/companies-house/lookup' },
  // Stripe calls it; billing verifies the signature.
  { method: 'POST', path: '/api/billing/webhooks/stripe' },
];

/** Sign-in endpoints: rate limited per client address at the gateway. */
export const SIGN_IN_ROUTES: ReadonlyArray<string> = [
  '/api/identity/admin/login',
  '/api/identity/auth/login',
  '/api/identity/auth/passkeys/sign-in',
  '/api/identity/auth/signup',
  '/api/identity/invitations/accept',
  // Each request may send an e-mail, and a reset token or a current password is a secret to guess.
  '/api/identity/auth/forgot-password',
  '/api/identity/auth/reset-password',
  '/api/identity/auth/password',
  '/api/identity/admin/password',
  // Not a sign-in, but public and each request spends the practice's Companies House allowance.
  '/api/deadlines/companies-house/lookup',
];

export { SERVICES, type GatewayService } from './services.js';
