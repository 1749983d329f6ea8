import {
  ADMIN_AUTH_ROUTES,
  ENGAGEMENT_ROUTES,
  IDENTITY_ROUTES,
  type ClientLetters,
  type EngagementOverview,
  type LetterStatuses,
  type MyLetters,
  type SendReply,
  type SignBody,
  type SignReply,
  type Templates,
  type TemplatesSaveBody,
  type TermsBody,
  type TermsReply,
} from '@countinghouse/proto';
import { api, apiPath, type AuthRealm } from '../../app/api';

export interface RealmArg {
  realm?: AuthRealm;
}

export const engagementApi = api.injectEndpoints({
  endpoints: (build) => ({
    myLetters: build.query<MyLetters, void>({
      query: () => ({ url: apiPath(ENGAGEMENT_ROUTES.mine), auth: 'user' }),
      providesTags: [{ type: 'EngagementLetter', id: 'MINE' }],
    }),
    clientLetters: build.query<ClientLetters, { clientId: string } & RealmArg>({
      query: ({ clientId, realm }) => ({ url: apiPath(ENGAGEMENT_ROUTES.client(clientId)), auth: realm ?? 'admin' }),
      providesTags: (_r, _e, a) => [{ type: 'EngagementLetter', id: a.clientId }],
    }),
    letterStatuses: build.query<LetterStatuses, RealmArg>({
      query: ({ realm }) => ({ url: apiPath(ENGAGEMENT_ROUTES.statuses), auth: realm ?? 'admin' }),
      providesTags: [{ type: 'EngagementLetter', id: 'STATUSES' }],
    }),
    engagementOverview: build.query<EngagementOverview, RealmArg>({
      query: ({ realm }) => ({ url: apiPath(ENGAGEMENT_ROUTES.overview), auth: realm ?? 'admin' }),
      providesTags: [{ type: 'EngagementLetter', id: 'OVERVIEW' }],
    }),
    /** Terms before payment (issue 33): the letter for the package the client chose, made if needed. */
    packageTerms: build.mutation<TermsReply, TermsBody>({
      query: (body) => ({ url: apiPath(ENGAGEMENT_ROUTES.terms), method: 'POST', body, auth: 'user' }),
      invalidatesTags: [{ type: 'EngagementLetter', id: 'MINE' }],
    }),
    signLetter: build.mutation<SignReply, { id: string } & SignBody>({
      query: ({ id, ...body }) => ({ url: apiPath(ENGAGEMENT_ROUTES.sign(id)), method: 'POST', body, auth: 'user' }),
      invalidatesTags: ['EngagementLetter', 'Document'],
    }),
    sendClientLetter: build.mutation<{ letters: ClientLetters; message: string }, { clientId: string } & RealmArg>({
      query: ({ clientId, realm }) => ({ url: apiPath(ENGAGEMENT_ROUTES.clientSend(clientId)), method: 'POST', auth: realm ?? 'admin' }),
      invalidatesTags: ['EngagementLetter'],
    }),
    letterTemplates: build.query<Templates, void>({
      query: () => ({ url: apiPath(ENGAGEMENT_ROUTES.templates), auth: 'admin' }),
      providesTags: ['EngagementTemplates'],
    }),
    saveLetterTemplates: build.mutation<{ templates: Templates; message: string }, TemplatesSaveBody>({
      query: (body) => ({ url: apiPath(ENGAGEMENT_ROUTES.templates), method: 'PUT', body, auth: 'admin' }),
      invalidatesTags: ['EngagementTemplates'],
    }),
    sendNewTerms: build.mutation<SendReply, void>({
      query: () => ({ url: apiPath(ENGAGEMENT_ROUTES.templatesSend), method: 'POST', auth: 'admin' }),
      invalidatesTags: ['EngagementTemplates', 'EngagementLetter'],
    }),
  }),
});

export const {
  useMyLettersQuery,
  useClientLettersQuery,
  useLetterStatusesQuery,
  useEngagementOverviewQuery,
  usePackageTermsMutation,
  useSignLetterMutation,
  useSendClientLetterMutation,
  useLetterTemplatesQuery,
  useSaveLetterTemplatesMutation,
  useSendNewTermsMutation,
} = engagementApi;

/** Hand the signed PDF to the browser (refreshing an expired session once). */
export async function downloadSignedLetter(id: string, filename: string, realm: 'admin' | 'user'): Promise<void> {
  const url = ENGAGEMENT_ROUTES.pdf(id);
  let res = await fetch(url, { credentials: 'include' });
  if (res.status === 401) {
    const refreshed = await fetch(realm === 'admin' ? ADMIN_AUTH_ROUTES.refresh : IDENTITY_ROUTES.refresh, {
      method: 'POST',
      credentials: 'include',
    }).catch(() => null);
    if (refreshed?.ok) res = await fetch(url, { credentials: 'include' });
  }
  if (!res.ok) throw new Error((await res.json().catch(() => null))?.error?.message ?? 'The PDF could not be downloaded.');
  const href = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

export const pdfName = (version: number, signedAt: string) => `engagement-letter-v${version}-signed-${signedAt.slice(0, 10)}.pdf`;
