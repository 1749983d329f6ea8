import {
  CRM_ROUTES,
  WORKSPACE_ROUTES,
  type AmlFile,
  type Client,
  type ClientIdentifiers,
  type ClientIdentifiersInput,
  type ClientRecord,
  type DeadlineDoneInput,
  type MarkDoneReply,
  type NextDeadlinesReply,
  type TaskActionReply,
  type TimelineEntry,
  type TimelineReply,
  type WorkReply,
  type WorkWho,
  type CommunicationList,
  type Task,
  type TaskList,
  type TaskListQuery,
  type TaskUpdateBody,
} from '@countinghouse/proto';
import { api, apiPath, type AuthRealm } from '../../app/api';

/**
 * The workspace's calls. Every page of the workspace runs in two places: the admin panel (the admin
 * session, realm 'admin') and the staff-side area /work (a person's session, realm 'user'), so each
 * call takes the realm. The server decides what each person may see (an accountant: their clients).
 */
export interface RealmArg {
  realm?: AuthRealm;
}

const clean = (q: object) =>
  Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Record<string, string | number>;

export const workspaceApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The record's header, identifiers, badges and counts (403 for another accountant's client). */
    record: build.query<ClientRecord, { id: string } & RealmArg>({
      query: ({ id, realm }) => ({ url: apiPath(WORKSPACE_ROUTES.clientRecord(id)), auth: realm ?? 'admin' }),
      // The badges follow the client's AML file, letter and deadlines: refreshed when any of them changes here.
      providesTags: (_r, _e, a) => [
        { type: 'Client', id: a.id },
        { type: 'AmlFile', id: a.id },
        { type: 'EngagementLetter', id: a.id },
        { type: 'Deadline', id: 'LIST' },
        'Deadline',
      ],
    }),
    saveIdentifiers: build.mutation<
      { identifiers: ClientIdentifiers; message: string },
      { id: string; body: ClientIdentifiersInput } & RealmArg
    >({
      query: ({ id, body, realm }) => ({
        url: apiPath(WORKSPACE_ROUTES.clientIdentifiers(id)),
        method: 'PUT',
        body,
        auth: realm ?? 'admin',
      }),
      invalidatesTags: (_r, _e, a) => [{ type: 'Client', id: a.id }],
    }),
    timeline: build.query<TimelineReply, { id: string; before?: string } & RealmArg>({
      query: ({ id, before, realm }) => ({
        url: apiPath(WORKSPACE_ROUTES.clientTimeline(id)),
        params: before ? { before, limit: 50 } : { limit: 50 },
        auth: realm ?? 'admin',
      }),
      providesTags: (_r, _e, a) => [{ type: 'Client', id: `TIMELINE-${a.id}` }],
    }),
    addNote: build.mutation<{ entry: TimelineEntry; message: string }, { id: string; text: string } & RealmArg>({
      query: ({ id, text, realm }) => ({
        url: apiPath(WORKSPACE_ROUTES.clientNotes(id)),
        method: 'POST',
        body: { text },
        auth: realm ?? 'admin',
      }),
      invalidatesTags: (_r, _e, a) => [
        { type: 'Client', id: `TIMELINE-${a.id}` },
        { type: 'Client', id: a.id },
      ],
    }),
    /** My work: each owning service answers for its items (tasks, deadlines, AML reviews, letters). */
    work: build.query<WorkReply, { source: 'tasks' | 'deadlines' | 'aml' | 'letters'; who: WorkWho } & RealmArg>({
      query: ({ source, who, realm }) => ({ url: apiPath(WORK_ROUTE[source]), params: { who }, auth: realm ?? 'admin' }),
      providesTags: (_r, _e, a) => [WORK_TAG[a.source], { type: 'Task', id: 'LIST' }],
    }),
    taskComplete: build.mutation<TaskActionReply, { id: string; reopen?: boolean } & RealmArg>({
      query: ({ id, reopen, realm }) => ({
        url: apiPath(reopen ? WORKSPACE_ROUTES.taskReopen(id) : WORKSPACE_ROUTES.taskComplete(id)),
        method: 'POST',
        auth: realm ?? 'admin',
      }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Task', id }, { type: 'Task', id: 'LIST' }, 'SidebarStats', 'Client'],
    }),
    deadlineDone: build.mutation<MarkDoneReply, { id: string; body: DeadlineDoneInput } & RealmArg>({
      query: ({ id, body, realm }) => ({ url: apiPath(WORKSPACE_ROUTES.deadlineDone(id)), method: 'POST', body, auth: realm ?? 'admin' }),
      invalidatesTags: ['Deadline', 'Client', 'Task'],
    }),
    deadlineUndo: build.mutation<MarkDoneReply, { id: string } & RealmArg>({
      query: ({ id, realm }) => ({ url: apiPath(WORKSPACE_ROUTES.deadlineUndo(id)), method: 'POST', auth: realm ?? 'admin' }),
      invalidatesTags: ['Deadline', 'Client', 'Task'],
    }),
    amlReturn: build.mutation<AmlFile, { clientId: string; reason: string } & RealmArg>({
      query: ({ clientId, reason, realm }) => ({
        url: apiPath(WORKSPACE_ROUTES.amlReturn(clientId)),
        method: 'POST',
        body: { reason },
        auth: realm ?? 'admin',
      }),
      invalidatesTags: (_r, _e, a) => [{ type: 'AmlFile', id: a.clientId }, { type: 'AmlFile', id: 'LIST' }, 'Client'],
    }),
    /** Each listed client's earliest open deadline (an overdue one first) and its overdue count: the clients list's column. */
    nextDeadlines: build.query<NextDeadlinesReply, { clientIds: readonly string[] } & RealmArg>({
      query: ({ clientIds, realm }) => ({
        url: apiPath(WORKSPACE_ROUTES.nextDeadlines),
        params: { client_ids: clientIds.join(',') },
        auth: realm ?? 'admin',
      }),
      providesTags: ['Deadline', { type: 'Deadline', id: 'LIST' }],
    }),
    clientRecord: build.query<Client, { id: string } & RealmArg>({
      query: ({ id, realm }) => ({ url: apiPath(CRM_ROUTES.client(id)), auth: realm ?? 'admin' }),
      providesTags: (_r, _e, a) => [{ type: 'Client', id: a.id }],
    }),
    workTasks: build.query<TaskList, Partial<TaskListQuery> & RealmArg>({
      query: ({ realm, ...q }) => ({ url: apiPath(CRM_ROUTES.tasks), params: clean(q), auth: realm ?? 'admin' }),
      providesTags: [{ type: 'Task', id: 'LIST' }],
    }),
    completeTask: build.mutation<Task, { id: string; body: TaskUpdateBody } & RealmArg>({
      query: ({ id, body, realm }) => ({ url: apiPath(CRM_ROUTES.task(id)), method: 'PATCH', body, auth: realm ?? 'admin' }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Task', id }, { type: 'Task', id: 'LIST' }, 'SidebarStats'],
    }),
    clientCommunications: build.query<CommunicationList, { clientId: string } & RealmArg>({
      query: ({ clientId, realm }) => ({
        url: apiPath(CRM_ROUTES.communications),
        params: { client_id: clientId, page_size: 50 },
        auth: realm ?? 'admin',
      }),
      providesTags: [{ type: 'Communication', id: 'LIST' }],
    }),
  }),
});

const WORK_ROUTE = {
  tasks: WORKSPACE_ROUTES.workTasks,
  deadlines: WORKSPACE_ROUTES.workDeadlines,
  aml: WORKSPACE_ROUTES.workAml,
  letters: WORKSPACE_ROUTES.workLetters,
} as const;
const WORK_TAG = { tasks: 'Task', deadlines: 'Deadline', aml: 'AmlFile', letters: 'EngagementLetter' } as const;

export const {
  useRecordQuery,
  useSaveIdentifiersMutation,
  useTimelineQuery,
  useAddNoteMutation,
  useWorkQuery,
  useTaskCompleteMutation,
  useDeadlineDoneMutation,
  useDeadlineUndoMutation,
  useAmlReturnMutation,
  useNextDeadlinesQuery,
} = workspaceApi;
export const { useClientRecordQuery, useWorkTasksQuery, useCompleteTaskMutation, useClientCommunicationsQuery } = workspaceApi;
