import { IDENTITY_VERIFICATION_ROUTES, type IdentityList, type IdentityListQuery } from '@countinghouse/proto';
import { api, apiPath, type AuthRealm } from '../../app/api';

export type IdentityListArgs = Partial<IdentityListQuery> & { realm?: AuthRealm };

export const identityVerificationApi = api.injectEndpoints({
  endpoints: (build) => ({
    identityPeople: build.query<IdentityList, IdentityListArgs>({
      query: ({ realm, ...params }) => ({ url: apiPath(IDENTITY_VERIFICATION_ROUTES.list), params, auth: realm ?? 'admin' }),
      providesTags: [{ type: 'Deadline', id: 'IDV' }],
    }),
  }),
});

export const { useIdentityPeopleQuery } = identityVerificationApi;
