import {
  COMPANY_LOOKUP_ROUTE,
  IDENTITY_ROUTES,
  type CompanyLookup,
  type ChangePasswordBody,
  type ForgotPasswordBody,
  type LoginBody,
  type LoginReply,
  type Me,
  type MessageReply,
  type ResetLookup,
  type ResetPasswordBody,
  type SignupBody,
} from '@countinghouse/proto';
import { api, apiPath } from '../../app/api';

/** A person's (staff or client) session: sign-up, sign-in, who am I, sign-out. */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    personSignup: build.mutation<MessageReply, SignupBody>({
      query: (body) => ({ url: apiPath(IDENTITY_ROUTES.signup), method: 'POST', body }),
      extraOptions: { auth: 'none' },
    }),
    // The sign-up form's Companies House lookup (public, rate limited per address; issue 33).
    companyLookup: build.mutation<CompanyLookup, { company_number: string }>({
      query: (body) => ({ url: apiPath(COMPANY_LOOKUP_ROUTE), method: 'POST', body }),
      extraOptions: { auth: 'none' },
    }),
    personLogin: build.mutation<LoginReply, LoginBody>({
      query: (body) => ({ url: apiPath(IDENTITY_ROUTES.login), method: 'POST', body }),
      // A 401 here means wrong credentials, not an expired session.
      extraOptions: { auth: 'none' },
    }),
    /** The signed-in person; the base query refreshes the session once if the access token expired. */
    me: build.query<Me, void>({
      query: () => apiPath(IDENTITY_ROUTES.me),
      extraOptions: { auth: 'user' },
      providesTags: ['PersonSession'],
    }),
    /**
     * Who is signed in, for the public frame's header: no refresh and no session-ended signal on a
     * 401 (an anonymous visitor is not an expired session). Pages that need a session use `me`.
     */
    sessionProbe: build.query<Me, void>({
      query: () => apiPath(IDENTITY_ROUTES.me),
      extraOptions: { auth: 'none' },
      providesTags: ['PersonSession'],
    }),
    personLogout: build.mutation<MessageReply, void>({
      query: () => ({ url: apiPath(IDENTITY_ROUTES.logout), method: 'POST' }),
      extraOptions: { auth: 'none' },
    }),
    /** Always the same neutral answer, whether or not the e-mail has an account. */
    forgotPassword: build.mutation<MessageReply, ForgotPasswordBody>({
      query: (body) => ({ url: apiPath(IDENTITY_ROUTES.forgotPassword), method: 'POST', body }),
      extraOptions: { auth: 'none' },
    }),
    resetLookup: build.query<ResetLookup, string>({
      query: (token) => apiPath(IDENTITY_ROUTES.resetLookup(token)),
      extraOptions: { auth: 'none' },
      keepUnusedDataFor: 0,
    }),
    resetPassword: build.mutation<MessageReply, ResetPasswordBody>({
      query: (body) => ({ url: apiPath(IDENTITY_ROUTES.resetPassword), method: 'POST', body }),
      extraOptions: { auth: 'none' },
    }),
    /** The server ends every other session and hands this browser new cookies. */
    changePassword: build.mutation<MessageReply, ChangePasswordBody>({
      query: (body) => ({ url: apiPath(IDENTITY_ROUTES.changePassword), method: 'POST', body }),
      extraOptions: { auth: 'user' },
    }),
  }),
});

export const {
  usePersonSignupMutation,
  useCompanyLookupMutation,
  usePersonLoginMutation,
  useMeQuery,
  useSessionProbeQuery,
  usePersonLogoutMutation,
  useForgotPasswordMutation,
  useResetLookupQuery,
  useResetPasswordMutation,
  useChangePasswordMutation,
} = authApi;
