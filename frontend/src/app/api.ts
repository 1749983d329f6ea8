import {
  createApi,
  fetchBaseQuery,
  type BaseQueryApi,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query/react';
import { ADMIN_AUTH_ROUTES, MESSAGES, type AdminVerifyReply, type ErrorBody } from '@countinghouse/proto';
import { adminSessionEnded, adminUserReceived, selectAdminUser, type AdminSessionState } from './admin-session';

export const API_BASE = '/api';

/** proto's routes are absolute ('/api/identity/…'); RTK Query wants them relative to the base URL. */
export function apiPath(route: string): string {
  return route.startsWith(`${API_BASE}/`) ? route.slice(API_BASE.length) : route;
}

/**
 * Per-endpoint options. `auth: 'none'` opts out of the refresh-and-retry below (login, refresh,
 * logout and public reads, where a 401 means exactly what it says). Everything else is treated as
 * an admin call; a later issue adds the staff/client realm here.
 */
export interface ApiExtraOptions {
  auth?: 'admin' | 'none';
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

// One refresh at a time: parallel 401s share it, so the server sees a single cookie rotation.
let refreshInFlight: Promise<RefreshOutcome> | null = null;

interface RefreshOutcome {
  ok: boolean;
  /** The refresh's error code: SESSION_EXPIRED means there was a session to lose. */
  code?: string;
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

/**
 * fetchBaseQuery plus admin re-authentication: a 401 (expired or missing access token) triggers one
 * POST /identity/admin/refresh, then the request is retried once. If that fails the admin session
 * is ended; the admin layout then tells the user and redirects to /admin/login.
 */
export const baseQueryWithReauth: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError, ApiExtraOptions> = async (
  args,
  api,
  extraOptions = {},
) => {
  let result = await rawBaseQuery(args, api, extraOptions);
  if (extraOptions.auth === 'none' || !needsReauth(result.error)) return result;

  const state = api.getState() as { adminSession: AdminSessionState };
  const knewSession = selectAdminUser(state) !== null || errorBody(result.error)?.code === 'SESSION_EXPIRED';

  refreshInFlight ??= refreshAdminSession(api).finally(() => {
    refreshInFlight = null;
  });
  const refresh = await refreshInFlight;
  if (refresh.ok) {
    result = await rawBaseQuery(args, api, extraOptions);
    if (!needsReauth(result.error)) return result;
  }
  const hadSession = knewSession || refresh.code === 'SESSION_EXPIRED';
  api.dispatch(adminSessionEnded(hadSession ? 'expired' : 'no-session'));
  return result;
};

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
    'SidebarStats',
  ],
  endpoints: () => ({}),
});
