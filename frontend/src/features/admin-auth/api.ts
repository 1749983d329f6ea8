import {
  ADMIN_AUTH_ROUTES,
  type AdminLoginBody,
  type AdminLoginReply,
  type AdminLogoutReply,
  type AdminVerifyReply,
  type ChangePasswordBody,
  type MessageReply,
} from '@countinghouse/proto';
import { api, apiPath } from '../../app/api';
import { adminUserReceived } from '../../app/admin-session';

export const adminAuthApi = api.injectEndpoints({
  endpoints: (build) => ({
    adminLogin: build.mutation<AdminLoginReply, AdminLoginBody>({
      query: (body) => ({ url: apiPath(ADMIN_AUTH_ROUTES.login), method: 'POST', body }),
      // A 401 here means wrong credentials, not an expired session.
      extraOptions: { auth: 'none' },
    }),
    /** Verify the admin session cookie; the re-auth base query refreshes it once if it has expired. */
    adminSession: build.query<AdminVerifyReply, void>({
      query: () => apiPath(ADMIN_AUTH_ROUTES.verify),
      providesTags: ['AdminSession'],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(adminUserReceived(data.user));
        } catch {
          // Failures are handled by the re-auth base query and the admin layout.
        }
      },
    }),
    /**
     * A new access token for the admin panel session (after setting up two-factor sign-in: one without the
     * restriction). The session check's cached answer is left as it is: the set-up page re-reads it when the
     * recovery codes have been saved (the layout changes frame then, which would drop them from the page).
     */
    adminRefresh: build.mutation<AdminVerifyReply, void>({
      query: () => ({ url: apiPath(ADMIN_AUTH_ROUTES.refresh), method: 'POST' }),
      extraOptions: { auth: 'none' },
    }),
    adminLogout: build.mutation<AdminLogoutReply, void>({
      query: () => ({ url: apiPath(ADMIN_AUTH_ROUTES.logout), method: 'POST' }),
      extraOptions: { auth: 'none' },
    }),
    /** The admin panel account's password; the server ends every other session and hands this browser new cookies. */
    adminChangePassword: build.mutation<MessageReply, ChangePasswordBody>({
      query: (body) => ({ url: apiPath(ADMIN_AUTH_ROUTES.changePassword), method: 'POST', body }),
    }),
  }),
});

export const {
  useAdminLoginMutation,
  useAdminSessionQuery,
  useAdminRefreshMutation,
  useAdminLogoutMutation,
  useAdminChangePasswordMutation,
} = adminAuthApi;
