import {
  MTD_ROUTES,
  type MtdAgentType,
  type MtdAuthorisation,
  type MtdCalculationSummary,
  type MtdClient,
  type MtdConnection,
  type MtdDevice,
  type MtdFinalDeclaration,
  type MtdLedger,
  type MtdLedgerBasis,
  type MtdLedgerMappingsBody,
  type MtdOverview,
  type MtdPropertyFigures,
  type MtdRefreshDue,
  type MtdSubmission,
  type MtdUpdateFigures,
} from '@countinghouse/proto';
import { api, apiPath, type AuthRealm } from '../../app/api';

/** Making Tax Digital for Income Tax (issue 31): the integrations service's /mtd routes. */
interface R {
  realm?: AuthRealm;
}
type ClientArg = { clientId: string } & R;
const tag = (id: string) => [
  { type: 'Integration' as const, id: `MTD-${id}` },
  { type: 'Integration' as const, id: 'MTD' },
];

export const mtdApi = api.injectEndpoints({
  endpoints: (build) => ({
    mtdConnection: build.query<MtdConnection, R | void>({
      query: (a) => ({ url: apiPath(MTD_ROUTES.connection), auth: a?.realm ?? 'user' }),
      providesTags: [{ type: 'Integration', id: 'MTD' }],
    }),
    setMtdArn: build.mutation<MtdConnection, { arn: string } & R>({
      query: ({ arn, realm }) => ({ url: apiPath(MTD_ROUTES.arn), method: 'PUT', body: { arn }, auth: realm ?? 'user' }),
      invalidatesTags: [{ type: 'Integration', id: 'MTD' }],
    }),
    connectHmrc: build.mutation<{ authUrl: string }, R | void>({
      query: (a) => ({ url: apiPath(MTD_ROUTES.connect), method: 'POST', auth: a?.realm ?? 'user' }),
    }),
    mtdOverview: build.query<MtdOverview, R | void>({
      query: (a) => ({ url: apiPath(MTD_ROUTES.overview), auth: a?.realm ?? 'user' }),
      providesTags: [{ type: 'Integration', id: 'MTD' }],
    }),
    mtdClient: build.query<MtdClient, ClientArg>({
      query: ({ clientId, realm }) => ({ url: apiPath(MTD_ROUTES.client(clientId)), auth: realm ?? 'user' }),
      providesTags: (_r, _e, a) => tag(a.clientId),
    }),
    setMtdIdentifiers: build.mutation<{ ok: boolean }, ClientArg & { nino: string; postcode: string }>({
      query: ({ clientId, realm, ...body }) => ({
        url: apiPath(`${MTD_ROUTES.client(clientId)}/identifiers`),
        method: 'PUT',
        body,
        auth: realm ?? 'user',
      }),
      invalidatesTags: (_r, _e, a) => tag(a.clientId),
    }),
    recordMtdIncome: build.mutation<{ ok: boolean }, ClientArg & { taxYear: string; amount: number }>({
      query: ({ clientId, realm, ...body }) => ({
        url: apiPath(`${MTD_ROUTES.client(clientId)}/income`),
        method: 'POST',
        body,
        auth: realm ?? 'user',
      }),
      invalidatesTags: (_r, _e, a) => tag(a.clientId),
    }),
    setMtdExemption: build.mutation<{ ok: boolean }, ClientArg & { reason: string | null }>({
      query: ({ clientId, realm, reason }) => ({
        url: apiPath(`${MTD_ROUTES.client(clientId)}/exemption`),
        method: 'PUT',
        body: { reason },
        auth: realm ?? 'user',
      }),
      invalidatesTags: (_r, _e, a) => tag(a.clientId),
    }),
    requestMtdAuthorisation: build.mutation<MtdAuthorisation, ClientArg & { agentType: MtdAgentType }>({
      query: ({ clientId, realm, agentType }) => ({
        url: apiPath(`${MTD_ROUTES.client(clientId)}/authorisations`),
        method: 'POST',
        body: { agentType },
        auth: realm ?? 'user',
      }),
      invalidatesTags: (_r, _e, a) => tag(a.clientId),
    }),
    mtdAuthorisationAction: build.mutation<MtdAuthorisation, ClientArg & { id: string; action: 'check' | 'cancel' }>({
      query: ({ clientId, realm, id, action }) => ({
        url: apiPath(`${MTD_ROUTES.client(clientId)}/authorisations/${encodeURIComponent(id)}/${action}`),
        method: 'POST',
        auth: realm ?? 'user',
      }),
      invalidatesTags: (_r, _e, a) => tag(a.clientId),
    }),
    refreshMtdObligations: build.mutation<{ obligations: number }, ClientArg & { device: MtdDevice }>({
      query: ({ clientId, realm, device }) => ({
        url: apiPath(`${MTD_ROUTES.client(clientId)}/obligations/refresh`),
        method: 'POST',
        body: { device },
        auth: realm ?? 'user',
      }),
      invalidatesTags: (_r, _e, a) => tag(a.clientId),
    }),
    reviewMtdUpdate: build.mutation<{ body: unknown; path: string; reviewHash: string }, ClientArg & { figures: MtdUpdateFigures }>({
      query: ({ clientId, realm, figures }) => ({
        url: apiPath(`${MTD_ROUTES.client(clientId)}/updates/review`),
        method: 'POST',
        body: figures,
        auth: realm ?? 'user',
      }),
    }),
    /** One round of the daily refresh of obligations, from this person's browser (issue 31, item 5). */
    refreshDueMtdObligations: build.mutation<MtdRefreshDue, { device: MtdDevice } & R>({
      query: ({ device, realm }) => ({
        url: apiPath(MTD_ROUTES.refreshDue),
        method: 'POST',
        body: { device },
        auth: realm ?? 'user',
      }),
      invalidatesTags: (r) => (r && r.refreshed > 0 ? [{ type: 'Integration' as const, id: 'MTD' }] : []),
    }),
    /** The client's Xero or QuickBooks profit and loss, mapped to HMRC's categories (item 6). */
    mtdLedger: build.query<MtdLedger, ClientArg & { taxYear: string; periodEndDate: string; basis: MtdLedgerBasis }>({
      query: ({ clientId, realm, ...q }) => ({
        url: apiPath(`${MTD_ROUTES.client(clientId)}/ledger`),
        params: q,
        auth: realm ?? 'user',
      }),
      providesTags: (_r, _e, a) => [{ type: 'Integration' as const, id: `MTD-ledger-${a.clientId}` }],
    }),
    saveMtdLedgerMappings: build.mutation<{ ok: boolean; message: string }, ClientArg & MtdLedgerMappingsBody>({
      query: ({ clientId, realm, mappings }) => ({
        url: apiPath(`${MTD_ROUTES.client(clientId)}/ledger/mappings`),
        method: 'PUT',
        body: { mappings },
        auth: realm ?? 'user',
      }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Integration' as const, id: `MTD-ledger-${a.clientId}` }],
    }),
    reviewMtdPropertyUpdate: build.mutation<
      { body: unknown; path: string; reviewHash: string },
      ClientArg & { figures: MtdPropertyFigures }
    >({
      query: ({ clientId, realm, figures }) => ({
        url: apiPath(`${MTD_ROUTES.client(clientId)}/property-updates/review`),
        method: 'POST',
        body: figures,
        auth: realm ?? 'user',
      }),
    }),
    submitMtdPropertyUpdate: build.mutation<MtdSubmission, ClientArg & { figures: MtdPropertyFigures; reviewHash: string }>({
      query: ({ clientId, realm, figures, reviewHash }) => ({
        url: apiPath(`${MTD_ROUTES.client(clientId)}/property-updates`),
        method: 'POST',
        body: { ...figures, reviewHash, confirmed: true },
        auth: realm ?? 'user',
      }),
      invalidatesTags: (_r, _e, a) => tag(a.clientId),
    }),
    triggerMtdFinalCalculation: build.mutation<{ calculationId: string }, ClientArg & { taxYear: string; device: MtdDevice }>({
      query: ({ clientId, realm, ...body }) => ({
        url: apiPath(`${MTD_ROUTES.client(clientId)}/final-declaration/calculation`),
        method: 'POST',
        body,
        auth: realm ?? 'user',
      }),
    }),
    submitMtdFinalDeclaration: build.mutation<
      MtdFinalDeclaration,
      ClientArg & { taxYear: string; calculationId: string; device: MtdDevice }
    >({
      query: ({ clientId, realm, ...body }) => ({
        url: apiPath(`${MTD_ROUTES.client(clientId)}/final-declaration`),
        method: 'POST',
        body: { ...body, confirmed: true },
        auth: realm ?? 'user',
      }),
      invalidatesTags: (_r, _e, a) => tag(a.clientId),
    }),
    mtdCalculation: build.mutation<MtdCalculationSummary, ClientArg & { calculationId: string; device: MtdDevice }>({
      query: ({ clientId, realm, calculationId, device }) => ({
        url: apiPath(`${MTD_ROUTES.client(clientId)}/calculations/${encodeURIComponent(calculationId)}`),
        method: 'POST',
        body: { device },
        auth: realm ?? 'user',
      }),
    }),
    submitMtdUpdate: build.mutation<MtdSubmission, ClientArg & { figures: MtdUpdateFigures; reviewHash: string }>({
      query: ({ clientId, realm, figures, reviewHash }) => ({
        url: apiPath(`${MTD_ROUTES.client(clientId)}/updates`),
        method: 'POST',
        body: { ...figures, reviewHash, confirmed: true },
        auth: realm ?? 'user',
      }),
      invalidatesTags: (_r, _e, a) => tag(a.clientId),
    }),
  }),
});

export const {
  useMtdConnectionQuery,
  useSetMtdArnMutation,
  useConnectHmrcMutation,
  useMtdOverviewQuery,
  useMtdClientQuery,
  useSetMtdIdentifiersMutation,
  useRecordMtdIncomeMutation,
  useSetMtdExemptionMutation,
  useRequestMtdAuthorisationMutation,
  useMtdAuthorisationActionMutation,
  useRefreshMtdObligationsMutation,
  useReviewMtdUpdateMutation,
  useSubmitMtdUpdateMutation,
  useMtdCalculationMutation,
  useTriggerMtdFinalCalculationMutation,
  useSubmitMtdFinalDeclarationMutation,
  useReviewMtdPropertyUpdateMutation,
  useSubmitMtdPropertyUpdateMutation,
  useLazyMtdLedgerQuery,
  useRefreshDueMtdObligationsMutation,
  useSaveMtdLedgerMappingsMutation,
} = mtdApi;
