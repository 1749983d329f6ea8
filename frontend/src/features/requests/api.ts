import {
  REQUESTS_ROUTES,
  type AttachedFile,
  type AwaitingReview,
  type ClientRequest,
  type Message,
  type NewRequestBody,
  type RequestClients,
  type RequestList,
  type RequestTemplate,
  type RequestTemplates,
  type TemplateBody,
  type ReviewItemBody,
  type SubmitItemBody,
  type Thread,
  type UnreadThreads,
} from '@countinghouse/proto';
import { api, apiPath, type AuthRealm } from '../../app/api';

export interface RealmArg {
  realm?: AuthRealm;
}

/**
 * The requests service's endpoints. For the client record page and My work (#26): useRequestsQuery
 * with client_id (a client's requests), useAwaitingReviewQuery (items waiting for review),
 * useUnreadThreadsQuery (threads the practice has not read), and <MessageThread clientId realm />.
 */
export const requestsApi = api.injectEndpoints({
  endpoints: (build) => ({
    requests: build.query<RequestList, { status?: 'open' | 'complete' | 'cancelled'; client_id?: string } & RealmArg>({
      query: ({ realm, ...params }) => ({ url: apiPath(REQUESTS_ROUTES.list), params, auth: realm ?? 'admin' }),
      providesTags: ['ClientRequest'],
    }),
    requestClients: build.query<RequestClients, RealmArg>({
      query: ({ realm }) => ({ url: apiPath(REQUESTS_ROUTES.clients), auth: realm ?? 'admin' }),
    }),
    requestTemplates: build.query<RequestTemplates, RealmArg>({
      query: ({ realm }) => ({ url: apiPath(REQUESTS_ROUTES.templates), auth: realm ?? 'admin' }),
      providesTags: ['RequestTemplate'],
    }),
    /** requests.templates (managers): add, change and delete templates with their reminder schedules. */
    createRequestTemplate: build.mutation<RequestTemplate, TemplateBody & RealmArg>({
      query: ({ realm, ...body }) => ({ url: apiPath(REQUESTS_ROUTES.templates), method: 'POST', body, auth: realm ?? 'admin' }),
      invalidatesTags: ['RequestTemplate'],
    }),
    updateRequestTemplate: build.mutation<RequestTemplate, { id: string } & TemplateBody & RealmArg>({
      query: ({ realm, id, ...body }) => ({ url: apiPath(REQUESTS_ROUTES.template(id)), method: 'PUT', body, auth: realm ?? 'admin' }),
      invalidatesTags: ['RequestTemplate'],
    }),
    deleteRequestTemplate: build.mutation<{ ok: boolean; message: string }, { id: string } & RealmArg>({
      query: ({ realm, id }) => ({ url: apiPath(REQUESTS_ROUTES.template(id)), method: 'DELETE', auth: realm ?? 'admin' }),
      invalidatesTags: ['RequestTemplate'],
    }),
    sendRequest: build.mutation<ClientRequest, NewRequestBody & RealmArg>({
      query: ({ realm, ...body }) => ({ url: apiPath(REQUESTS_ROUTES.list), method: 'POST', body, auth: realm ?? 'admin' }),
      invalidatesTags: ['ClientRequest'],
    }),
    submitItem: build.mutation<ClientRequest, { id: string; itemId: string } & SubmitItemBody & RealmArg>({
      query: ({ id, itemId, realm, ...body }) => ({
        url: apiPath(REQUESTS_ROUTES.submit(id, itemId)),
        method: 'POST',
        body,
        auth: realm ?? 'user',
      }),
      invalidatesTags: ['ClientRequest', 'Document'],
    }),
    reviewItem: build.mutation<ClientRequest, { id: string; itemId: string } & ReviewItemBody & RealmArg>({
      query: ({ id, itemId, realm, ...body }) => ({
        url: apiPath(REQUESTS_ROUTES.review(id, itemId)),
        method: 'POST',
        body,
        auth: realm ?? 'admin',
      }),
      invalidatesTags: ['ClientRequest'],
    }),
    remindNow: build.mutation<{ ok: boolean; message: string }, { id: string } & RealmArg>({
      query: ({ id, realm }) => ({ url: apiPath(REQUESTS_ROUTES.remind(id)), method: 'POST', auth: realm ?? 'admin' }),
      invalidatesTags: ['ClientRequest'],
    }),
    awaitingReview: build.query<AwaitingReview, RealmArg>({
      query: ({ realm }) => ({ url: apiPath(REQUESTS_ROUTES.awaitingReview), auth: realm ?? 'admin' }),
      providesTags: ['ClientRequest'],
    }),
    unreadThreads: build.query<UnreadThreads, RealmArg>({
      query: ({ realm }) => ({ url: apiPath(REQUESTS_ROUTES.unreadThreads), auth: realm ?? 'admin' }),
      providesTags: ['RequestThread'],
    }),
    thread: build.query<Thread, { clientId: string } & RealmArg>({
      query: ({ clientId, realm }) => ({ url: apiPath(REQUESTS_ROUTES.thread(clientId)), auth: realm ?? 'admin' }),
      providesTags: (_r, _e, a) => [{ type: 'RequestThread', id: a.clientId }],
    }),
    /** The thread without marking it read (the client portal's Home counts the unread). */
    threadUnread: build.query<Thread, { clientId: string } & RealmArg>({
      query: ({ clientId, realm }) => ({
        url: apiPath(REQUESTS_ROUTES.thread(clientId)),
        params: { mark_read: false },
        auth: realm ?? 'admin',
      }),
      providesTags: (_r, _e, a) => [{ type: 'RequestThread', id: a.clientId }],
    }),
    postMessage: build.mutation<Message, { clientId: string; body: string; attachments?: AttachedFile[] } & RealmArg>({
      query: ({ clientId, realm, ...body }) => ({
        url: apiPath(REQUESTS_ROUTES.messages(clientId)),
        method: 'POST',
        body,
        auth: realm ?? 'admin',
      }),
      invalidatesTags: (_r, _e, a) => [{ type: 'RequestThread', id: a.clientId }, 'RequestThread', 'Document'],
    }),
  }),
});

export const {
  useRequestsQuery,
  useRequestClientsQuery,
  useRequestTemplatesQuery,
  useCreateRequestTemplateMutation,
  useUpdateRequestTemplateMutation,
  useDeleteRequestTemplateMutation,
  useSendRequestMutation,
  useSubmitItemMutation,
  useReviewItemMutation,
  useRemindNowMutation,
  useAwaitingReviewQuery,
  useUnreadThreadsQuery,
  useThreadQuery,
  useThreadUnreadQuery,
  usePostMessageMutation,
} = requestsApi;

/** A chosen file as the JSON the API takes (base64). */
export async function toAttachedFile(file: File): Promise<AttachedFile> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { filename: file.name, content_type: file.type || 'application/octet-stream', base64: btoa(binary) };
}
