import {
  BILLING_ROUTES,
  CRM_ROUTES,
  type Client,
  type ClientCreateBody,
  type ClientList,
  type ClientListQuery,
  type ClientUpdateBody,
  type ClientUpgrade,
  type Communication,
  type CommunicationCreateBody,
  type CommunicationList,
  type CommunicationListQuery,
  type CrmStats,
  type MonthlyRevenue,
  type GhlConfig,
  type GhlImportResult,
  type Lead,
  type LeadConvertBody,
  type LeadConvertReply,
  type LeadCreateBody,
  type LeadList,
  type LeadListQuery,
  type LeadUpdateBody,
  type SearchResult,
  type SidebarCounts,
  type Task,
  type TaskCreateBody,
  type TaskList,
  type TaskListQuery,
  type TaskUpdateBody,
  type TeamMemberList,
  type UpgradeCreateBody,
  type UpgradeList,
  type UpgradeListQuery,
  type UpgradeUpdateBody,
} from '@countinghouse/proto';
import type { FetchArgs } from '@reduxjs/toolkit/query/react';
import { api, apiPath } from '../../app/api';

/**
 * Which session a crm call runs under: the admin panel's ('admin', the default) or a person's in
 * the staff portal ('user'). The app's base query reads `auth` from the arguments to choose the
 * refresh on a 401. Components take it from CrmRealmProvider (realm.tsx).
 */
export type CrmRealm = 'admin' | 'user' | 'any';
type Args = FetchArgs & { auth?: CrmRealm };
type R = { realm?: CrmRealm };

const get = (route: string, realm: CrmRealm = 'admin', params?: object): Args => ({
  url: apiPath(route),
  ...(params ? { params: cleanParams(params) } : {}),
  auth: realm,
});
const send = (route: string, method: string, body: unknown, realm: CrmRealm = 'admin'): Args => ({
  url: apiPath(route),
  method,
  ...(body === undefined ? {} : { body }),
  auth: realm,
});

/** Drops empty filters so 'All Status' and an empty search box send nothing (the server's "no filter"). */
function cleanParams<T extends object>(query: T): Partial<T> {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>;
}

// Every write that changes a count also refreshes the sidebar badges and the summary cards.
const COUNTS = ['SidebarStats'] as const;

export const crmApi = api.injectEndpoints({
  endpoints: (build) => ({
    crmStats: build.query<CrmStats, R | void>({
      query: (a) => get(CRM_ROUTES.stats, a?.realm),
      providesTags: ['SidebarStats'],
    }),
    /** The practice's monthly revenue (billing's one definition), for the control panel and staff portal. */
    monthlyRevenue: build.query<MonthlyRevenue, R | void>({
      query: (a) => get(BILLING_ROUTES.revenue, a?.realm),
      providesTags: ['SidebarStats', 'Billing'],
    }),
    sidebarCounts: build.query<SidebarCounts, void>({
      query: () => get(CRM_ROUTES.sidebarCounts),
      providesTags: ['SidebarStats'],
    }),
    crmSearch: build.query<SearchResult, string>({
      query: (q) => get(CRM_ROUTES.search, 'admin', { q, limit: 5 }),
    }),
    teamMembers: build.query<TeamMemberList, R | void>({
      query: (a) => get(CRM_ROUTES.teamMembers, a?.realm),
      providesTags: ['Staff'],
    }),

    clients: build.query<ClientList, Partial<ClientListQuery> & R>({
      query: ({ realm, ...q }) => get(CRM_ROUTES.clients, realm, q),
      providesTags: (result) => [
        { type: 'Client', id: 'LIST' },
        ...(result?.clients ?? []).map((c) => ({ type: 'Client' as const, id: c.id })),
      ],
    }),
    client: build.query<Client, string>({
      query: (id) => get(CRM_ROUTES.client(id)),
      providesTags: (_r, _e, id) => [{ type: 'Client', id }],
    }),
    createClient: build.mutation<Client, ClientCreateBody & R>({
      query: ({ realm, ...body }) => send(CRM_ROUTES.clients, 'POST', body, realm),
      invalidatesTags: [{ type: 'Client', id: 'LIST' }, ...COUNTS],
    }),
    updateClient: build.mutation<Client, { id: string; body: ClientUpdateBody } & R>({
      query: ({ id, body, realm }) => send(CRM_ROUTES.client(id), 'PATCH', body, realm),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Client', id }, { type: 'Client', id: 'LIST' }, ...COUNTS],
    }),

    leads: build.query<LeadList, Partial<LeadListQuery> & R>({
      query: ({ realm, ...q }) => get(CRM_ROUTES.leads, realm, q),
      providesTags: (result) => [{ type: 'Lead', id: 'LIST' }, ...(result?.leads ?? []).map((l) => ({ type: 'Lead' as const, id: l.id }))],
    }),
    lead: build.query<Lead, string>({
      query: (id) => get(CRM_ROUTES.lead(id)),
      providesTags: (_r, _e, id) => [{ type: 'Lead', id }],
    }),
    createLead: build.mutation<Lead, LeadCreateBody & R>({
      query: ({ realm, ...body }) => send(CRM_ROUTES.leads, 'POST', body, realm),
      invalidatesTags: [{ type: 'Lead', id: 'LIST' }, ...COUNTS],
    }),
    updateLead: build.mutation<Lead, { id: string; body: LeadUpdateBody } & R>({
      query: ({ id, body, realm }) => send(CRM_ROUTES.lead(id), 'PATCH', body, realm),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Lead', id }, { type: 'Lead', id: 'LIST' }, ...COUNTS],
    }),
    convertLead: build.mutation<LeadConvertReply, { id: string; body: LeadConvertBody } & R>({
      query: ({ id, body, realm }) => send(CRM_ROUTES.convertLead(id), 'POST', body, realm),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Lead', id }, { type: 'Lead', id: 'LIST' }, { type: 'Client', id: 'LIST' }, ...COUNTS],
    }),

    ghlConfig: build.query<GhlConfig, R | void>({
      query: (a) => get(CRM_ROUTES.ghlConfig, a?.realm),
    }),
    ghlImport: build.mutation<GhlImportResult, R | void>({
      query: (a) => send(CRM_ROUTES.ghlImport, 'POST', undefined, a?.realm),
      invalidatesTags: [{ type: 'Lead', id: 'LIST' }, ...COUNTS],
    }),

    tasks: build.query<TaskList, Partial<TaskListQuery>>({
      query: (q) => ({ url: apiPath(CRM_ROUTES.tasks), params: cleanParams(q) }),
      providesTags: [{ type: 'Task', id: 'LIST' }],
    }),
    task: build.query<Task, string>({
      query: (id) => apiPath(CRM_ROUTES.task(id)),
      providesTags: (_r, _e, id) => [{ type: 'Task', id }],
    }),
    createTask: build.mutation<Task, TaskCreateBody>({
      query: (body) => ({ url: apiPath(CRM_ROUTES.tasks), method: 'POST', body }),
      invalidatesTags: [{ type: 'Task', id: 'LIST' }, ...COUNTS],
    }),
    updateTask: build.mutation<Task, { id: string; body: TaskUpdateBody }>({
      query: ({ id, body }) => ({ url: apiPath(CRM_ROUTES.task(id)), method: 'PATCH', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Task', id }, { type: 'Task', id: 'LIST' }, ...COUNTS],
    }),

    upgrades: build.query<UpgradeList, Partial<UpgradeListQuery>>({
      query: (q) => ({ url: apiPath(CRM_ROUTES.upgrades), params: cleanParams(q) }),
      providesTags: [{ type: 'Upgrade', id: 'LIST' }],
    }),
    createUpgrade: build.mutation<ClientUpgrade, UpgradeCreateBody>({
      query: (body) => ({ url: apiPath(CRM_ROUTES.upgrades), method: 'POST', body }),
      invalidatesTags: [{ type: 'Upgrade', id: 'LIST' }, ...COUNTS],
    }),
    updateUpgrade: build.mutation<ClientUpgrade, { id: string; body: UpgradeUpdateBody }>({
      query: ({ id, body }) => ({ url: apiPath(CRM_ROUTES.upgrade(id)), method: 'PATCH', body }),
      // Completing an upgrade moves the client to the new package and fee.
      invalidatesTags: [{ type: 'Upgrade', id: 'LIST' }, { type: 'Client', id: 'LIST' }, ...COUNTS],
    }),

    communications: build.query<CommunicationList, Partial<CommunicationListQuery>>({
      query: (q) => ({ url: apiPath(CRM_ROUTES.communications), params: cleanParams(q) }),
      providesTags: [{ type: 'Communication', id: 'LIST' }],
    }),
    createCommunication: build.mutation<Communication, CommunicationCreateBody>({
      query: (body) => ({ url: apiPath(CRM_ROUTES.communications), method: 'POST', body }),
      invalidatesTags: [{ type: 'Communication', id: 'LIST' }, ...COUNTS],
    }),
  }),
});

export const {
  useCrmStatsQuery,
  useMonthlyRevenueQuery,
  useSidebarCountsQuery,
  useCrmSearchQuery,
  useTeamMembersQuery,
  useClientsQuery,
  useClientQuery,
  useCreateClientMutation,
  useUpdateClientMutation,
  useLeadsQuery,
  useLeadQuery,
  useCreateLeadMutation,
  useUpdateLeadMutation,
  useConvertLeadMutation,
  useGhlConfigQuery,
  useGhlImportMutation,
  useTasksQuery,
  useTaskQuery,
  useCreateTaskMutation,
  useUpdateTaskMutation,
  useUpgradesQuery,
  useCreateUpgradeMutation,
  useUpdateUpgradeMutation,
  useCommunicationsQuery,
  useCreateCommunicationMutation,
} = crmApi;
