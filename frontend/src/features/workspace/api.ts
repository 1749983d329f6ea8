import {
  CRM_ROUTES,
  type Client,
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

export const { useClientRecordQuery, useWorkTasksQuery, useCompleteTaskMutation, useClientCommunicationsQuery } = workspaceApi;
