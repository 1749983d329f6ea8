import {
  ACSP_ROUTES,
  IDENTITY_VERIFICATION_ROUTES,
  type AcspSettings,
  type AcspSettingsInput,
  type AcspVerification,
  type AcspVerificationInput,
  type IdentityList,
  type IdentityListQuery,
} from '@countinghouse/proto';
import { api, apiPath, type AuthRealm } from '../../app/api';

export type IdentityListArgs = Partial<IdentityListQuery> & { realm?: AuthRealm };
type ClientArg = { clientId: string; realm?: AuthRealm };

// ACSP records hang off the AML file's tag (no new tag type in the shared api): a client's records, and
// the practice's settings. Recording one also changes the view (deadlines marks the person verified).
const recordsTag = (clientId: string) => ({ type: 'AmlFile' as const, id: `ACSP:${clientId}` });
const SETTINGS_TAG = { type: 'AmlFile' as const, id: 'ACSP-SETTINGS' };
const VIEW_TAG = { type: 'Deadline' as const, id: 'IDV' };

export const identityVerificationApi = api.injectEndpoints({
  endpoints: (build) => ({
    identityPeople: build.query<IdentityList, IdentityListArgs>({
      query: ({ realm, ...params }) => ({ url: apiPath(IDENTITY_VERIFICATION_ROUTES.list), params, auth: realm ?? 'admin' }),
      providesTags: [VIEW_TAG],
    }),
    acspSettings: build.query<AcspSettings, { realm?: AuthRealm } | void>({
      query: (a) => ({ url: apiPath(ACSP_ROUTES.settings), auth: (a && a.realm) || 'admin' }),
      providesTags: [SETTINGS_TAG],
    }),
    saveAcspSettings: build.mutation<{ settings: AcspSettings; message: string }, AcspSettingsInput & { realm?: AuthRealm }>({
      query: ({ realm, ...body }) => ({ url: apiPath(ACSP_ROUTES.settings), method: 'PUT', body, auth: realm ?? 'admin' }),
      invalidatesTags: [SETTINGS_TAG],
    }),
    acspVerifications: build.query<{ items: AcspVerification[] }, ClientArg>({
      query: ({ clientId, realm }) => ({ url: apiPath(ACSP_ROUTES.records(clientId)), auth: realm ?? 'admin' }),
      providesTags: (_r, _e, a) => [recordsTag(a.clientId)],
    }),
    recordAcspVerification: build.mutation<{ record: AcspVerification; message: string }, ClientArg & { input: AcspVerificationInput }>({
      query: ({ clientId, realm, input }) => ({
        url: apiPath(ACSP_ROUTES.records(clientId)),
        method: 'POST',
        body: input,
        auth: realm ?? 'admin',
      }),
      invalidatesTags: (_r, _e, a) => [recordsTag(a.clientId), { type: 'AmlFile', id: a.clientId }, VIEW_TAG],
    }),
    deleteAcspVerification: build.mutation<{ success: boolean; message: string }, ClientArg & { id: string }>({
      query: ({ clientId, id, realm }) => ({ url: apiPath(ACSP_ROUTES.record(clientId, id)), method: 'DELETE', auth: realm ?? 'admin' }),
      invalidatesTags: (_r, _e, a) => [recordsTag(a.clientId), { type: 'AmlFile', id: a.clientId }, VIEW_TAG],
    }),
  }),
});

export const {
  useIdentityPeopleQuery,
  useAcspSettingsQuery,
  useSaveAcspSettingsMutation,
  useAcspVerificationsQuery,
  useRecordAcspVerificationMutation,
  useDeleteAcspVerificationMutation,
} = identityVerificationApi;
