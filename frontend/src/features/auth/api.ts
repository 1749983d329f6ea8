import { IDENTITY_ROUTES, type LoginBody, type LoginReply, type Me, type MessageReply, type SignupBody } from '@countinghouse/proto';
import { api, apiPath } from '../../app/api';

/** A person's (staff or client) session: sign-up, sign-in, who am I, sign-out. */
export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    personSignup: build.mutation<MessageReply, SignupBody>({
      query: (body) => ({ url: apiPath(IDENTITY_ROUTES.signup), method: 'POST', body }),
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
  }),
});

export const { usePersonSignupMutation, usePersonLoginMutation, useMeQuery, useSessionProbeQuery, usePersonLogoutMutation } = authApi;
