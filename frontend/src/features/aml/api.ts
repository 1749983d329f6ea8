import {
  AML_ROUTES,
  type AmlFile,
  type AmlList,
  type AmlListQuery,
  type AmlReport,
  type AmlStatuses,
  type AmlVersion,
  type ApproveInput,
  type EvidenceInput,
  type PersonInput,
  type RiskAnswers,
} from '@countinghouse/proto';
import { api, apiPath, type AuthRealm } from '../../app/api';

export interface RealmArg {
  realm?: AuthRealm;
}
type ClientArg = { clientId: string } & RealmArg;
const fileTags = (a: ClientArg) => [
  { type: 'AmlFile' as const, id: a.clientId },
  { type: 'AmlFile' as const, id: 'LIST' },
];

export const amlApi = api.injectEndpoints({
  endpoints: (build) => ({
    amlFiles: build.query<AmlList, Partial<AmlListQuery> & RealmArg>({
      query: ({ realm, ...params }) => ({ url: apiPath(AML_ROUTES.list), params, auth: realm ?? 'admin' }),
      providesTags: [{ type: 'AmlFile', id: 'LIST' }],
    }),
    amlStatuses: build.query<AmlStatuses, { clientIds: string[] } & RealmArg>({
      query: ({ clientIds, realm }) => ({
        url: apiPath(AML_ROUTES.statuses),
        params: { client_ids: clientIds.join(',') },
        auth: realm ?? 'admin',
      }),
      providesTags: [{ type: 'AmlFile', id: 'LIST' }],
    }),
    amlReport: build.query<AmlReport, RealmArg | void>({
      query: (a) => ({ url: apiPath(AML_ROUTES.report), auth: (a && a.realm) || 'admin' }),
      providesTags: [{ type: 'AmlFile', id: 'LIST' }],
    }),
    amlFile: build.query<AmlFile, ClientArg>({
      query: ({ clientId, realm }) => ({ url: apiPath(AML_ROUTES.file(clientId)), auth: realm ?? 'admin' }),
      providesTags: (_r, _e, a) => [{ type: 'AmlFile', id: a.clientId }],
    }),
    amlVersion: build.query<AmlVersion, ClientArg & { version: number }>({
      query: ({ clientId, version, realm }) => ({ url: apiPath(AML_ROUTES.version(clientId, version)), auth: realm ?? 'admin' }),
    }),
    addAmlPerson: build.mutation<AmlFile, ClientArg & { person: PersonInput }>({
      query: ({ clientId, person, realm }) => ({
        url: apiPath(AML_ROUTES.people(clientId)),
        method: 'POST',
        body: person,
        auth: realm ?? 'admin',
      }),
      invalidatesTags: (_r, _e, a) => fileTags(a),
    }),
    updateAmlPerson: build.mutation<AmlFile, ClientArg & { personId: string; person: PersonInput }>({
      query: ({ clientId, personId, person, realm }) => ({
        url: apiPath(AML_ROUTES.person(clientId, personId)),
        method: 'PUT',
        body: person,
        auth: realm ?? 'admin',
      }),
      invalidatesTags: (_r, _e, a) => fileTags(a),
    }),
    removeAmlPerson: build.mutation<AmlFile, ClientArg & { personId: string }>({
      query: ({ clientId, personId, realm }) => ({
        url: apiPath(AML_ROUTES.person(clientId, personId)),
        method: 'DELETE',
        auth: realm ?? 'admin',
      }),
      invalidatesTags: (_r, _e, a) => fileTags(a),
    }),
    addAmlEvidence: build.mutation<AmlFile, ClientArg & { personId: string; evidence: EvidenceInput }>({
      query: ({ clientId, personId, evidence, realm }) => ({
        url: apiPath(AML_ROUTES.evidence(clientId, personId)),
        method: 'POST',
        body: evidence,
        auth: realm ?? 'admin',
      }),
      invalidatesTags: (_r, _e, a) => fileTags(a),
    }),
    answerAmlRisk: build.mutation<AmlFile, ClientArg & { answers: RiskAnswers }>({
      query: ({ clientId, answers, realm }) => ({
        url: apiPath(AML_ROUTES.risk(clientId)),
        method: 'PUT',
        body: answers,
        auth: realm ?? 'admin',
      }),
      invalidatesTags: (_r, _e, a) => fileTags(a),
    }),
    submitAmlFile: build.mutation<AmlFile, ClientArg>({
      query: ({ clientId, realm }) => ({ url: apiPath(AML_ROUTES.submit(clientId)), method: 'POST', auth: realm ?? 'admin' }),
      invalidatesTags: (_r, _e, a) => fileTags(a),
    }),
    approveAmlFile: build.mutation<AmlFile, ClientArg & ApproveInput>({
      query: ({ clientId, note, realm }) => ({
        url: apiPath(AML_ROUTES.approve(clientId)),
        method: 'POST',
        body: { note },
        auth: realm ?? 'admin',
      }),
      invalidatesTags: (_r, _e, a) => fileTags(a),
    }),
  }),
});

export const {
  useAmlFilesQuery,
  useAmlStatusesQuery,
  useAmlReportQuery,
  useAmlFileQuery,
  useAmlVersionQuery,
  useAddAmlPersonMutation,
  useUpdateAmlPersonMutation,
  useRemoveAmlPersonMutation,
  useAddAmlEvidenceMutation,
  useAnswerAmlRiskMutation,
  useSubmitAmlFileMutation,
  useApproveAmlFileMutation,
} = amlApi;
