import {
  INTEGRATIONS_ROUTES,
  type ConnectReply,
  type DisconnectReply,
  type IntegrationList,
  type IntegrationType,
  type SyncJob,
  type SyncReply,
} from '@countinghouse/proto';
import { api, apiPath } from '../../app/api';

/** The integrations service, in a person's session (a client's own page; staff pass client_id). */
export const integrationsApi = api.injectEndpoints({
  endpoints: (build) => ({
    integrations: build.query<IntegrationList, { client_id?: string } | void>({
      query: (arg) => ({ url: apiPath(INTEGRATIONS_ROUTES.list), params: arg?.client_id ? { client_id: arg.client_id } : undefined }),
      extraOptions: { auth: 'user' },
      providesTags: ['Integration'],
    }),
    connectIntegration: build.mutation<ConnectReply, IntegrationType>({
      query: (provider) => ({ url: apiPath(INTEGRATIONS_ROUTES.connect(provider)), method: 'POST' }),
      extraOptions: { auth: 'user' },
    }),
    syncIntegration: build.mutation<SyncReply, IntegrationType>({
      query: (provider) => ({ url: apiPath(INTEGRATIONS_ROUTES.sync(provider)), method: 'POST' }),
      extraOptions: { auth: 'user' },
    }),
    syncJob: build.query<SyncJob, string>({
      query: (id) => apiPath(INTEGRATIONS_ROUTES.job(id)),
      extraOptions: { auth: 'user' },
      keepUnusedDataFor: 0,
    }),
    disconnectIntegration: build.mutation<DisconnectReply, IntegrationType>({
      query: (provider) => ({ url: apiPath(INTEGRATIONS_ROUTES.disconnect(provider)), method: 'POST' }),
      extraOptions: { auth: 'user' },
      invalidatesTags: ['Integration'],
    }),
  }),
});

export const {
  useIntegrationsQuery,
  useConnectIntegrationMutation,
  useSyncIntegrationMutation,
  useSyncJobQuery,
  useDisconnectIntegrationMutation,
} = integrationsApi;
