import { IDENTITY_ROUTES, type LockoutList, type UserList } from '@countinghouse/proto';
import { api, apiPath } from '../../app/api';

export interface UserListArgs {
  page: number;
  page_size: number;
  search?: string;
}

export const usersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Administrators only: an admin panel session or a person with the admin role; either may hold the cookie. */
    users: build.query<UserList, UserListArgs>({
      query: ({ page, page_size, search }) => ({
        url: apiPath(IDENTITY_ROUTES.users),
        params: { page, page_size, ...(search ? { search } : {}) },
        auth: 'any',
      }),
      providesTags: ['User'],
    }),
    /** Administrators only: the sign-in delays that started (who, from where, when, until). */
    lockouts: build.query<LockoutList, void>({
      query: () => ({ url: apiPath(IDENTITY_ROUTES.lockouts), auth: 'any' }),
      providesTags: ['Lockout'],
    }),
  }),
});

export const { useUsersQuery, useLockoutsQuery } = usersApi;
