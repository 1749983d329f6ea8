import {
  DEADLINES_ROUTES,
  type CalendarFeed,
  type ClientDeadlines,
  type ClientTaxRecord,
  type DeadlineList,
  type DeadlineListQuery,
  type DeadlineSettings,
  type MarkDoneReply,
  type TaxProfileInput,
} from '@countinghouse/proto';
import { api, apiPath, type AuthRealm } from '../../app/api';

/** Pages of the admin panel call under its session; the staff portal and the client dashboard under the person's. */
export interface RealmArg {
  realm?: AuthRealm;
}

export type DeadlineListArgs = Partial<DeadlineListQuery> & RealmArg;

export const deadlinesApi = api.injectEndpoints({
  endpoints: (build) => ({
    deadlines: build.query<DeadlineList, DeadlineListArgs>({
      query: ({ realm, ...params }) => ({ url: apiPath(DEADLINES_ROUTES.list), params, auth: realm ?? 'admin' }),
      providesTags: [{ type: 'Deadline', id: 'LIST' }],
    }),
    clientTaxRecord: build.query<ClientTaxRecord, { clientId: string } & RealmArg>({
      query: ({ clientId, realm }) => ({ url: apiPath(DEADLINES_ROUTES.client(clientId)), auth: realm ?? 'admin' }),
      providesTags: (_r, _e, a) => [{ type: 'TaxProfile', id: a.clientId }],
    }),
    clientDeadlines: build.query<ClientDeadlines, { clientId: string } & RealmArg>({
      query: ({ clientId, realm }) => ({ url: apiPath(DEADLINES_ROUTES.clientDeadlines(clientId)), auth: realm ?? 'admin' }),
      providesTags: (_r, _e, a) => [{ type: 'Deadline', id: `CLIENT-${a.clientId}` }],
    }),
    myDeadlines: build.query<ClientDeadlines, void>({
      query: () => ({ url: apiPath(DEADLINES_ROUTES.mine), auth: 'user' }),
      providesTags: [{ type: 'Deadline', id: 'MINE' }],
    }),
    saveTaxProfile: build.mutation<{ record: ClientTaxRecord; message: string }, { clientId: string; profile: TaxProfileInput } & RealmArg>(
      {
        query: ({ clientId, profile, realm }) => ({
          url: apiPath(DEADLINES_ROUTES.client(clientId)),
          method: 'PUT',
          body: profile,
          auth: realm ?? 'admin',
        }),
        invalidatesTags: (_r, _e, a) => [{ type: 'TaxProfile', id: a.clientId }, 'Deadline', 'Task'],
      },
    ),
    refreshCompany: build.mutation<{ record: ClientTaxRecord; message: string }, { clientId: string } & RealmArg>({
      query: ({ clientId, realm }) => ({ url: apiPath(DEADLINES_ROUTES.clientRefresh(clientId)), method: 'POST', auth: realm ?? 'admin' }),
      invalidatesTags: (_r, _e, a) => [{ type: 'TaxProfile', id: a.clientId }, 'Deadline'],
    }),
    markDeadlineDone: build.mutation<MarkDoneReply, { id: string } & RealmArg>({
      query: ({ id, realm }) => ({ url: apiPath(DEADLINES_ROUTES.done(id)), method: 'POST', auth: realm ?? 'admin' }),
      invalidatesTags: ['Deadline'],
    }),
    calendarFeed: build.query<CalendarFeed, RealmArg>({
      query: ({ realm }) => ({ url: apiPath(DEADLINES_ROUTES.calendar), auth: realm ?? 'admin' }),
    }),
    resetCalendarFeed: build.mutation<CalendarFeed, RealmArg>({
      query: ({ realm }) => ({ url: apiPath(DEADLINES_ROUTES.calendarReset), method: 'POST', auth: realm ?? 'admin' }),
    }),
    deadlineSettings: build.query<DeadlineSettings, RealmArg>({
      query: ({ realm }) => ({ url: apiPath(DEADLINES_ROUTES.settings), auth: realm ?? 'admin' }),
    }),
  }),
});

export const {
  useDeadlinesQuery,
  useClientTaxRecordQuery,
  useClientDeadlinesQuery,
  useMyDeadlinesQuery,
  useSaveTaxProfileMutation,
  useRefreshCompanyMutation,
  useMarkDeadlineDoneMutation,
  useCalendarFeedQuery,
  useResetCalendarFeedMutation,
} = deadlinesApi;
