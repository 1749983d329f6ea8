import { ADMIN_AUTH_ROUTES, IDENTITY_ROUTES, type LoginReply, type Me, type MessageReply } from '@countinghouse/proto';
import { api, apiPath } from '../../app/api';

/**
 * Whose authenticator app: a person's (staff or client, /auth/two-factor) or the admin panel account's
 * (/admin/two-factor). The same pages and endpoints serve both; people's is the default.
 */
export type TwoFactorRealm = 'user' | 'admin';

const routesOf = (realm: TwoFactorRealm | void) => (realm === 'admin' ? ADMIN_AUTH_ROUTES : IDENTITY_ROUTES);
const sessionTag = (realm: TwoFactorRealm | void) => (realm === 'admin' ? ('AdminSession' as const) : ('PersonSession' as const));

/** Whether two-factor sign-in is on, and how many recovery codes are left. */
export interface TwoFactorStatus {
  totp_enabled: boolean;
  recovery_codes_left: number;
}

/** The practice's rule: the date from which staff-side roles must use two-factor sign-in. */
export interface TwoFactorPolicy {
  required_from: string | null;
  roles: string[];
  updated_at: string | null;
}

export interface Passkey {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** A WebAuthn challenge: its id and the options the browser's credentials API takes (as JSON). */
export interface WebAuthnChallenge<T> {
  challenge_id: string;
  options: T;
}

/** After a confirmation or new codes: two-factor sign-in is on, with as many unused codes as were just handed out. */
async function statusFrom(
  realm: TwoFactorRealm | undefined,
  dispatch: (action: unknown) => unknown,
  queryFulfilled: Promise<{ data: { recovery_codes: string[] } }>,
) {
  try {
    const { data } = await queryFulfilled;
    dispatch(
      twoFactorApi.util.upsertQueryData('twoFactorStatus', realm === 'admin' ? 'admin' : undefined, {
        totp_enabled: true,
        recovery_codes_left: data.recovery_codes.length,
      }),
    );
  } catch {
    // the page shows the failure
  }
}

/** Two-factor sign-in for the signed-in person (issue 32), and the administrators' rule. */
export const twoFactorApi = api.injectEndpoints({
  endpoints: (build) => ({
    twoFactorStatus: build.query<TwoFactorStatus, TwoFactorRealm | void>({
      query: (realm) => ({ url: apiPath(routesOf(realm).twoFactor), auth: realm ?? 'user' }),
      providesTags: (_r, _e, realm) => [sessionTag(realm)],
    }),
    startTotp: build.mutation<{ secret: string; otpauth_uri: string }, TwoFactorRealm | void>({
      query: (realm) => ({ url: apiPath(routesOf(realm).twoFactorTotp), method: 'POST', auth: realm ?? 'user' }),
    }),
    confirmTotp: build.mutation<{ recovery_codes: string[] }, { code: string; realm?: TwoFactorRealm }>({
      query: ({ realm, ...body }) => ({ url: apiPath(routesOf(realm).twoFactorTotpConfirm), method: 'POST', body, auth: realm ?? 'user' }),
      // The card says "On" at once (not by re-reading the session, which would move an admin's page).
      onQueryStarted: ({ realm }, { dispatch, queryFulfilled }) => statusFrom(realm, dispatch, queryFulfilled),
    }),
    newRecoveryCodes: build.mutation<{ recovery_codes: string[] }, { code: string; realm?: TwoFactorRealm }>({
      query: ({ realm, ...body }) => ({
        url: apiPath(routesOf(realm).twoFactorRecoveryCodes),
        method: 'POST',
        body,
        auth: realm ?? 'user',
      }),
      onQueryStarted: ({ realm }, { dispatch, queryFulfilled }) => statusFrom(realm, dispatch, queryFulfilled),
    }),
    disableTwoFactor: build.mutation<MessageReply, { password: string; code?: string; recovery_code?: string; realm?: TwoFactorRealm }>({
      query: ({ realm, ...body }) => ({ url: apiPath(routesOf(realm).twoFactorDisable), method: 'POST', body, auth: realm ?? 'user' }),
      invalidatesTags: (_r, _e, arg) => [sessionTag(arg.realm)],
    }),
    /** A new access token (after enrolling, one without the enrolment restriction). */
    refreshPersonSession: build.mutation<Me, void>({
      query: () => ({ url: apiPath(IDENTITY_ROUTES.refresh), method: 'POST' }),
      extraOptions: { auth: 'none' },
      invalidatesTags: ['PersonSession'],
    }),
    passkeys: build.query<{ passkeys: Passkey[] }, void>({
      query: () => apiPath(IDENTITY_ROUTES.passkeys),
      extraOptions: { auth: 'user' },
      providesTags: ['PersonSession'],
    }),
    passkeyRegisterOptions: build.mutation<WebAuthnChallenge<Record<string, unknown>>, void>({
      query: () => ({ url: apiPath(IDENTITY_ROUTES.passkeyRegisterOptions), method: 'POST' }),
      extraOptions: { auth: 'user' },
    }),
    registerPasskey: build.mutation<{ passkeys: Passkey[] }, { challenge_id: string; response: unknown; name?: string }>({
      query: (body) => ({ url: apiPath(IDENTITY_ROUTES.passkeyRegister), method: 'POST', body }),
      extraOptions: { auth: 'user' },
      invalidatesTags: ['PersonSession'],
    }),
    removePasskey: build.mutation<MessageReply, string>({
      query: (id) => ({ url: apiPath(IDENTITY_ROUTES.passkey(id)), method: 'DELETE' }),
      extraOptions: { auth: 'user' },
      invalidatesTags: ['PersonSession'],
    }),
    passkeySignInOptions: build.mutation<WebAuthnChallenge<Record<string, unknown>>, void>({
      query: () => ({ url: apiPath(IDENTITY_ROUTES.passkeySignInOptions), method: 'POST' }),
      extraOptions: { auth: 'none' },
    }),
    passkeySignIn: build.mutation<LoginReply, { challenge_id: string; response: unknown; portal: 'staff' | 'client' }>({
      query: (body) => ({ url: apiPath(IDENTITY_ROUTES.passkeySignIn), method: 'POST', body }),
      extraOptions: { auth: 'none' },
    }),
    twoFactorPolicy: build.query<TwoFactorPolicy, void>({
      query: () => apiPath(IDENTITY_ROUTES.twoFactorPolicy),
      extraOptions: { auth: 'any' },
    }),
    setTwoFactorPolicy: build.mutation<TwoFactorPolicy, { required_from: string | null }>({
      query: (body) => ({ url: apiPath(IDENTITY_ROUTES.twoFactorPolicy), method: 'PUT', body }),
      extraOptions: { auth: 'any' },
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled;
        dispatch(twoFactorApi.util.upsertQueryData('twoFactorPolicy', undefined, data));
      },
    }),
  }),
});

export const {
  useTwoFactorStatusQuery,
  useStartTotpMutation,
  useConfirmTotpMutation,
  useNewRecoveryCodesMutation,
  useDisableTwoFactorMutation,
  useRefreshPersonSessionMutation,
  useTwoFactorPolicyQuery,
  usePasskeysQuery,
  usePasskeyRegisterOptionsMutation,
  useRegisterPasskeyMutation,
  useRemovePasskeyMutation,
  usePasskeySignInOptionsMutation,
  usePasskeySignInMutation,
  useSetTwoFactorPolicyMutation,
} = twoFactorApi;
