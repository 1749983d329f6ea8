import {
  IDENTITY_ROUTES,
  type AcceptInviteBody,
  type Invitation,
  type InvitationList,
  type InvitationLookup,
  type InvitationWithLink,
  type InviteBody,
  type MessageReply,
  type OutgoingMail,
  type StaffMember,
  type StillReachable,
} from '@countinghouse/proto';
import { api, apiPath } from '../../app/api';

/**
 * Which session the staff management calls run under: the staff portal's person session or the
 * admin panel's admin session (the server accepts both; the refresh on a 401 differs).
 */
export type StaffRealm = 'admin' | 'user';

export interface StaffList {
  staff: StaffMember[];
}
export interface OutgoingMailList {
  mail: OutgoingMail[];
  smtp_configured: boolean;
}

export const staffApi = api.injectEndpoints({
  endpoints: (build) => ({
    invitations: build.query<InvitationList, StaffRealm>({
      query: (realm) => ({ url: apiPath(IDENTITY_ROUTES.invitations), auth: realm }),
      providesTags: ['Invitation'],
    }),
    /** The answer carries the sign-up link: the only time it is shown. */
    inviteStaff: build.mutation<InvitationWithLink, InviteBody & { realm: StaffRealm }>({
      query: ({ realm, ...body }) => ({ url: apiPath(IDENTITY_ROUTES.invitations), method: 'POST', body, auth: realm }),
      invalidatesTags: ['Invitation', 'OutgoingMail'],
    }),
    cancelInvitation: build.mutation<Invitation, { id: string; realm: StaffRealm }>({
      query: ({ id, realm }) => ({ url: apiPath(IDENTITY_ROUTES.cancelInvitation(id)), method: 'POST', auth: realm }),
      invalidatesTags: ['Invitation'],
    }),
    /** A fresh link (the old one stops working), shown once to the re-sender. */
    resendInvitation: build.mutation<InvitationWithLink, { id: string; realm: StaffRealm }>({
      query: ({ id, realm }) => ({ url: apiPath(IDENTITY_ROUTES.resendInvitation(id)), method: 'POST', auth: realm }),
      invalidatesTags: ['Invitation', 'OutgoingMail'],
    }),
    staffMembers: build.query<StaffList, StaffRealm>({
      query: (realm) => ({ url: apiPath(IDENTITY_ROUTES.staff), auth: realm }),
      providesTags: ['Staff'],
    }),
    deactivateStaff: build.mutation<MessageReply, { userId: string; realm: StaffRealm }>({
      query: ({ userId, realm }) => ({ url: apiPath(IDENTITY_ROUTES.deactivateStaff(userId)), method: 'POST', auth: realm }),
      invalidatesTags: ['Staff', 'User'],
    }),
    /** The leaver view: what a person can still reach (roles, sessions, invitations sent, reset links, feeds). */
    stillReachable: build.query<StillReachable, { userId: string; realm: StaffRealm }>({
      query: ({ userId, realm }) => ({ url: apiPath(IDENTITY_ROUTES.staffAccess(userId)), auth: realm }),
      providesTags: ['Staff'],
      keepUnusedDataFor: 0,
    }),
    outgoingMail: build.query<OutgoingMailList, StaffRealm>({
      query: (realm) => ({ url: apiPath(IDENTITY_ROUTES.outgoingMail), auth: realm }),
      providesTags: ['OutgoingMail'],
    }),
    /** Public: the staff sign-up page checks its link before showing the form. */
    invitationLookup: build.query<InvitationLookup, string>({
      query: (token) => ({ url: apiPath(IDENTITY_ROUTES.invitationByToken(token)), auth: 'none' }),
      // A link is checked once per visit; a stale answer after cancelling elsewhere would mislead.
      keepUnusedDataFor: 0,
    }),
    acceptInvitation: build.mutation<MessageReply, AcceptInviteBody>({
      query: (body) => ({ url: apiPath(IDENTITY_ROUTES.acceptInvitation), method: 'POST', body, auth: 'none' }),
      invalidatesTags: ['Invitation', 'Staff', 'User'],
    }),
  }),
});

export const {
  useInvitationsQuery,
  useInviteStaffMutation,
  useCancelInvitationMutation,
  useResendInvitationMutation,
  useStaffMembersQuery,
  useDeactivateStaffMutation,
  useStillReachableQuery,
  useOutgoingMailQuery,
  useInvitationLookupQuery,
  useAcceptInvitationMutation,
} = staffApi;
