import {
  ADMIN_AUTH_ROUTES,
  IDENTITY_ROUTES,
  ROLES_ROUTES,
  type GrantRoleBody,
  type MessageReply,
  type Role,
  type RoleList,
  type UserList,
} from '@countinghouse/proto';
import { api, apiPath } from '../../app/api';

/**
 * User Roles (administrators: the admin panel session or a person with the admin role). A grant or
 * revocation also changes the staff and user lists, so those refetch too.
 */
export const rolesApi = api.injectEndpoints({
  endpoints: (build) => ({
    roles: build.query<RoleList, void>({
      query: () => ({ url: apiPath(ROLES_ROUTES.list) }),
      providesTags: ['Role'],
    }),
    /** Registered people to pick from (GET /identity/users, searched by name, e-mail or company). */
    rolePeople: build.query<UserList, string>({
      query: (search) => ({ url: apiPath(IDENTITY_ROUTES.users), params: { page: 1, page_size: 20, ...(search ? { search } : {}) } }),
      providesTags: ['User'],
    }),
    grantRole: build.mutation<MessageReply, GrantRoleBody>({
      query: (body) => ({ url: apiPath(ROLES_ROUTES.grants), method: 'POST', body }),
      invalidatesTags: ['Role', 'Staff', 'User'],
    }),
    revokeRole: build.mutation<MessageReply, { role: Role; userId: string }>({
      query: ({ role, userId }) => ({ url: apiPath(ROLES_ROUTES.personGrant(role, userId)), method: 'DELETE' }),
      invalidatesTags: ['Role', 'Staff', 'User'],
    }),
    deactivateAdminAccount: build.mutation<MessageReply, string>({
      query: (adminId) => ({ url: apiPath(ROLES_ROUTES.adminAccount(adminId)), method: 'DELETE' }),
      invalidatesTags: ['Role'],
    }),
    /** Another administrator turns an admin panel account's second factor off (a lost phone; issue 32). */
    resetAdminAccountTwoFactor: build.mutation<MessageReply, string>({
      query: (adminId) => ({ url: apiPath(ADMIN_AUTH_ROUTES.adminAccountTwoFactor(adminId)), method: 'DELETE' }),
    }),
  }),
});

export const {
  useRolesQuery,
  useRolePeopleQuery,
  useGrantRoleMutation,
  useRevokeRoleMutation,
  useDeactivateAdminAccountMutation,
  useResetAdminAccountTwoFactorMutation,
} = rolesApi;
