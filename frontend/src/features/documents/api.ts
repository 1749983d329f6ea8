import {
  DOCUMENTS_ROUTES,
  type AccessLog,
  type DirectoryList,
  type DocumentList,
  type DocumentListQuery,
  type DocumentSummary,
  type ViewLink,
} from '@countinghouse/proto';
import type { FetchArgs } from '@reduxjs/toolkit/query/react';
import { api, apiPath } from '../../app/api';

/**
 * Which session a documents call runs under: the admin panel's ('admin'), a person's in the staff
 * portal or client dashboard ('user'), or whichever the browser holds ('any'). The app's base query
 * reads `auth` from the arguments to choose the refresh on a 401.
 */
export type DocumentsRealm = 'admin' | 'user' | 'any';
type Args = FetchArgs & { auth?: DocumentsRealm };

export type ListArgs = Partial<DocumentListQuery> & { realm?: DocumentsRealm };

/** Drops empty filters: 'all' and an empty search mean no filter. */
function params(q: Partial<DocumentListQuery>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || v === null || v === '' || v === 'all') continue;
    out[k] = v as string | number;
  }
  return out;
}

export const documentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    documentsList: build.query<DocumentList, ListArgs>({
      query: ({ realm = 'admin', ...q }): Args => ({ url: apiPath(DOCUMENTS_ROUTES.list), params: params(q), auth: realm }),
      providesTags: [{ type: 'Document', id: 'LIST' }],
    }),
    documentsSummary: build.query<DocumentSummary, { clientId?: string; realm?: DocumentsRealm }>({
      query: ({ clientId, realm = 'admin' }): Args => ({
        url: apiPath(DOCUMENTS_ROUTES.summary),
        params: clientId ? { client_id: clientId } : {},
        auth: realm,
      }),
      providesTags: [{ type: 'Document', id: 'SUMMARY' }],
    }),
    documentClients: build.query<DirectoryList, { search?: string; realm?: DocumentsRealm }>({
      query: ({ search, realm = 'admin' }): Args => ({
        url: apiPath(DOCUMENTS_ROUTES.clients),
        params: search ? { search, limit: 50 } : { limit: 50 },
        auth: realm,
      }),
    }),
    documentViewLink: build.mutation<ViewLink, { id: string; realm?: DocumentsRealm }>({
      query: ({ id, realm = 'admin' }): Args => ({ url: apiPath(DOCUMENTS_ROUTES.viewLink(id)), method: 'POST', auth: realm }),
    }),
    documentAccessLog: build.query<AccessLog, { id: string; realm?: DocumentsRealm }>({
      query: ({ id, realm = 'admin' }): Args => ({ url: apiPath(DOCUMENTS_ROUTES.accessLog(id)), auth: realm }),
      providesTags: (_r, _e, { id }) => [{ type: 'Document', id: `LOG-${id}` }],
    }),
  }),
});

export const {
  useDocumentsListQuery,
  useDocumentsSummaryQuery,
  useDocumentClientsQuery,
  useDocumentViewLinkMutation,
  useDocumentAccessLogQuery,
} = documentsApi;

/** After uploads (made with XMLHttpRequest, outside RTK Query) the lists and counts refetch. */
export const documentsChanged = () =>
  documentsApi.util.invalidateTags([
    { type: 'Document', id: 'LIST' },
    { type: 'Document', id: 'SUMMARY' },
  ]);
