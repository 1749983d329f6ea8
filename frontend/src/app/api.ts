import {
  createApi,
  fetchBaseQuery,
  type BaseQueryApi,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { ADMIN_AUTH_ROUTES, IDENTITY_ROUTES, MESSAGES, type AdminVerifyReply, type ErrorBody } from '@countinghouse/proto';
import { adminSessionEnded, adminUserReceived, selectAdminUser, type AdminSessionState } from './admin-session';
import { personSessionEnded } from './person-session';

const API_BASE = '/api';

/** proto's routes are absolute ('/api/identity/…'); RTK Query wants them relative to the base URL. */
export function apiPath(route: string): string {
  return route.startsWith(`${API_BASE}/`) ? route.slice(API_BASE.length) : route;
}

/**
 * Which session a call runs under, and so which refresh to try on a 401:
 * - `admin` (the default): the admin panel's session; refresh with POST /identity/admin/refresh.
 * - `user`: a person's (staff or client) session; refresh with POST /identity/auth/refresh.
 * - `any`: whichever session the browser holds (pages both kinds may open, e.g. /user-management);
 *   tries the likely refresh, then the other, and never ends either session on its own.
 * - `none`: no refresh (login, refresh, logout and public reads, where a 401 means what it says).
 */
export type AuthRealm = 'admin' | 'user' | 'any' | 'none';

/** Per-endpoint options: the endpoint's realm. */
export interface ApiExtraOptions {
  auth?: AuthRealm;
}

/**
 * FetchArgs plus a per-call realm, for endpoints that serve both sessions (the staff management
 * panel runs in the staff portal and in the admin panel). It overrides the endpoint's option.
 */
export interface ApiArgs extends FetchArgs {
  auth?: AuthRealm;
}

const rawBaseQuery = fetchBaseQuery({ baseUrl: API_BASE, credentials: 'include' });

/** The `{ error: { code, message } }` body every service answers with, if that is what came back. */
export function errorBody(error: unknown): ErrorBody['error'] | undefined {
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined;
  const data = (error as { data: unknown }).data;
  if (typeof data !== 'object' || data === null || !('error' in data)) return undefined;
  const inner = (data as { error: unknown }).error;
  if (typeof inner !== 'object' || inner === null) return undefined;
  const { code, message } = inner as Record<string, unknown>;
  return typeof code === 'string' && typeof message === 'string' ? { code, message } : undefined;
}

export function httpStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  const status = (error as { status: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

const REAUTH_CODES = new Set(['SESSION_EXPIRED', 'UNAUTHENTICATED']);

function needsReauth(error: FetchBaseQueryError | undefined): boolean {
  return error?.status === 401 && REAUTH_CODES.has(errorBody(error)?.code ?? '');
}

// One refresh at a time per kind of session: parallel 401s share it, so the server sees a single
// cookie rotation (a second rotation with the same refresh token would look like a stolen token).
let adminRefreshInFlight: Promise<RefreshOutcome> | null = null;
let personRefreshInFlight: Promise<RefreshOutcome> | null = null;

interface RefreshOutcome {
  ok: boolean;
  /** The refresh's error code: SESSION_EXPIRED means there was a session to lose. */
  code?: string;
  /** The refresh never got an answer (offline, gateway down): not a reason to end the session. */
  network?: boolean;
}

async function refreshAdminSession(api: BaseQueryApi): Promise<RefreshOutcome> {
  // Own signal: aborting the request that happened to start the refresh must not cancel it for the others.
  const refreshApi: BaseQueryApi = { ...api, signal: new AbortController().signal };
  const result = await rawBaseQuery({ url: apiPath(ADMIN_AUTH_ROUTES.refresh), method: 'POST' }, refreshApi, {});
  const reply = result.data as AdminVerifyReply | undefined;
  if (result.error || !reply?.success || !reply.user) return { ok: false, code: errorBody(result.error)?.code };
  api.dispatch(adminUserReceived(reply.user));
  return { ok: true };
}

/** The spec's "200 ms doubling backoff" for session refresh retries: 200, 400, 800 ms. */
const PERSON_REFRESH_BACKOFF = { firstDelayMs: 200, retries: 3 } as const;

function isNetworkError(error: FetchBaseQueryError | undefined): boolean {
  return error?.status === 'FETCH_ERROR' || error?.status === 'TIMEOUT_ERROR';
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * POST /identity/auth/refresh. Only a network failure is retried (with the backoff): an answer,
 * even a 5xx, is final, and retrying a refused token would only be refused again.
 */
async function refreshPersonSession(api: BaseQueryApi): Promise<RefreshOutcome> {
  const refreshApi: BaseQueryApi = { ...api, signal: new AbortController().signal };
  let delay: number = PERSON_REFRESH_BACKOFF.firstDelayMs;
  for (let attempt = 0; ; attempt++) {
    const result = await rawBaseQuery({ url: apiPath(IDENTITY_ROUTES.refresh), method: 'POST' }, refreshApi, {});
    if (!result.error) return { ok: true };
    const network = isNetworkError(result.error);
    if (!network || attempt >= PERSON_REFRESH_BACKOFF.retries) return { ok: false, code: errorBody(result.error)?.code, network };
    await sleep(delay);
    delay *= 2;
  }
}

function sharedAdminRefresh(api: BaseQueryApi): Promise<RefreshOutcome> {
  adminRefreshInFlight ??= refreshAdminSession(api).finally(() => {
    adminRefreshInFlight = null;
  });
  return adminRefreshInFlight;
}

function sharedPersonRefresh(api: BaseQueryApi): Promise<RefreshOutcome> {
  personRefreshInFlight ??= refreshPersonSession(api).finally(() => {
    personRefreshInFlight = null;
  });
  return personRefreshInFlight;
}

type Result = Awaited<ReturnType<typeof rawBaseQuery>>;

/**
 * fetchBaseQuery plus re-authentication: a 401 (expired or missing access token) triggers one
 * refresh of the call's session (see AuthRealm), then the request is retried once. If that fails
 * the session is ended: the admin layout, or the staff / client page guard, tells the user and
 * redirects to the right login.
 */
export const baseQueryWithReauth: BaseQueryFn<string | ApiArgs, unknown, FetchBaseQueryError, ApiExtraOptions> = async (
  args,
  api,
  extraOptions = {},
) => {
  const { auth: callRealm, ...fetchArgs }: ApiArgs = typeof args === 'string' ? { url: args } : args;
  const realm: AuthRealm = callRealm ?? extraOptions.auth ?? 'admin';
  const result = await rawBaseQuery(fetchArgs, api, {});
  if (realm === 'none' || !needsReauth(result.error)) return result;
  const retry = async (): Promise<Result> => rawBaseQuery(fetchArgs, api, {});
  if (realm === 'user') return reauthPerson(result, retry, api);
  if (realm === 'any') return reauthAny(result, retry, api);
  return reauthAdmin(result, retry, api);
};

async function reauthAdmin(first: Result, retry: () => Promise<Result>, api: BaseQueryApi): Promise<Result> {
  const state = api.getState() as { adminSession: AdminSessionState };
  const knewSession = selectAdminUser(state) !== null || errorBody(first.error)?.code === 'SESSION_EXPIRED';
  const refresh = await sharedAdminRefresh(api);
  let result = first;
  if (refresh.ok) {
    result = await retry();
    if (!needsReauth(result.error)) return result;
  }
  const hadSession = knewSession || refresh.code === 'SESSION_EXPIRED';
  api.dispatch(adminSessionEnded(hadSession ? 'expired' : 'no-session'));
  return result;
}

async function reauthPerson(first: Result, retry: () => Promise<Result>, api: BaseQueryApi): Promise<Result> {
  const refresh = await sharedPersonRefresh(api);
  if (refresh.network) return first;
  let result = first;
  if (refresh.ok) {
    result = await retry();
    if (!needsReauth(result.error)) return result;
  } else if (refresh.code !== 'SESSION_EXPIRED' && refresh.code !== 'UNAUTHENTICATED') {
    // The refresh failed for another reason (a 5xx): the session may well be fine; let the page say so.
    return result;
  }
  const hadSession = refresh.ok || refresh.code === 'SESSION_EXPIRED' || errorBody(first.error)?.code === 'SESSION_EXPIRED';
  api.dispatch(personSessionEnded(hadSession ? 'expired' : 'no-session'));
  return result;
}

/** Try the session the browser most likely holds, then the other; the page decides what a 401 means. */
async function reauthAny(first: Result, retry: () => Promise<Result>, api: BaseQueryApi): Promise<Result> {
  const state = api.getState() as { adminSession: AdminSessionState };
  const order = selectAdminUser(state) ? [sharedAdminRefresh, sharedPersonRefresh] : [sharedPersonRefresh, sharedAdminRefresh];
  for (const refresh of order) {
    if ((await refresh(api)).ok) {
      const result = await retry();
      if (!needsReauth(result.error)) return result;
    }
  }
  return first;
}

/** Messages for the end of an admin session (spec section 8). */
export const ADMIN_SESSION_END_MESSAGES = {
  'no-session': MESSAGES.pleaseLogInAdmin,
  expired: MESSAGES.adminSessionExpired,
} as const;

/**
 * The one RTK Query API. Features add endpoints with `api.injectEndpoints` from
 * `features/<area>/api.ts`; tags are per resource so a mutation refreshes every list that shows it.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: baseQueryWithReauth,
  tagTypes: [
    'AdminSession',
    'PersonSession',
    'PublicConfig',
    'Client',
    'Lead',
    'Staff',
    'Invitation',
    'Document',
    'Task',
    'Upgrade',
    'Communication',
    'Billing',
    'Integration',
    'User',
    'OutgoingMail',
    'SidebarStats',
    'Settings',
    'Role',
    'Lockout',
    'Job',
    'Deadline',
    'TaxProfile',
    'AmlFile',
    'EngagementLetter',
    'EngagementTemplates',
    'ClientRequest',
    'RequestThread',
    'RequestTemplate',
    'ClientJob',
  ],
  endpoints: () => ({}),
});
