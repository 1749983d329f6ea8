import {
  CLIENT_JOBS_ROUTES,
  type CapacityReply,
  type DeliveryReply,
  type JobBoard,
  type JobBoardQuery,
  type JobDetail,
  type JobList,
  type JobListQuery,
  type JobMoveInput,
  type JobPatch,
  type JobScheduleInput,
  type JobScheduleList,
  type JobTemplate,
  type JobTemplateInput,
  type JobStaffMember,
  type JobStaffPatch,
  type ProfitabilityReply,
  type TimeEntry,
  type TimeEntryInput,
} from '@countinghouse/proto';
import { api, apiPath, type AuthRealm } from '../../app/api';

// Client jobs (issue 29): the board, the list, a job, time, capacity and profitability. Every page runs in
// the admin panel (realm 'admin') and at /work (a person's session, realm 'user').

export interface RealmArg {
  realm: AuthRealm;
}

const clean = (q: object) =>
  Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== null && v !== '' && v !== false)) as Record<
    string,
    string | number | boolean
  >;

type Timer = { timer: { job_id: string; started_at: string; title: string } | null };

export const clientJobsApi = api.injectEndpoints({
  endpoints: (build) => ({
    clientJobs: build.query<JobList, Partial<JobListQuery> & RealmArg>({
      query: ({ realm, ...q }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.list), params: clean(q), auth: realm }),
      providesTags: [{ type: 'ClientJob', id: 'LIST' }],
    }),
    jobBoard: build.query<JobBoard, JobBoardQuery & RealmArg>({
      query: ({ realm, ...q }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.board), params: clean(q), auth: realm }),
      providesTags: [{ type: 'ClientJob', id: 'LIST' }],
    }),
    clientJob: build.query<JobDetail, { id: string } & RealmArg>({
      query: ({ id, realm }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.job(id)), auth: realm }),
      providesTags: (_r, _e, a) => [{ type: 'ClientJob', id: a.id }],
    }),
    moveJob: build.mutation<JobDetail, { id: string; body: JobMoveInput } & RealmArg>({
      query: ({ id, body, realm }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.move(id)), method: 'POST', body, auth: realm }),
      invalidatesTags: (_r, _e, a) => [
        { type: 'ClientJob', id: a.id },
        { type: 'ClientJob', id: 'LIST' },
        { type: 'ClientJob', id: 'CAPACITY' },
        'Deadline',
      ],
    }),
    changeJob: build.mutation<JobDetail, { id: string; body: JobPatch } & RealmArg>({
      query: ({ id, body, realm }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.job(id)), method: 'PATCH', body, auth: realm }),
      invalidatesTags: (_r, _e, a) => [
        { type: 'ClientJob', id: a.id },
        { type: 'ClientJob', id: 'LIST' },
        { type: 'ClientJob', id: 'CAPACITY' },
      ],
    }),
    tickJobItem: build.mutation<JobDetail, { id: string; index: number; done: boolean } & RealmArg>({
      query: ({ id, index, done, realm }) => ({
        url: apiPath(CLIENT_JOBS_ROUTES.checklist(id)),
        method: 'POST',
        body: { index, done },
        auth: realm,
      }),
      invalidatesTags: (_r, _e, a) => [{ type: 'ClientJob', id: a.id }],
    }),
    addJobNote: build.mutation<JobDetail, { id: string; text: string } & RealmArg>({
      query: ({ id, text, realm }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.notes(id)), method: 'POST', body: { text }, auth: realm }),
      invalidatesTags: (_r, _e, a) => [{ type: 'ClientJob', id: a.id }],
    }),
    recordJobTime: build.mutation<{ entry: TimeEntry }, { id: string; body: TimeEntryInput } & RealmArg>({
      query: ({ id, body, realm }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.time(id)), method: 'POST', body, auth: realm }),
      invalidatesTags: (_r, _e, a) => [
        { type: 'ClientJob', id: a.id },
        { type: 'ClientJob', id: 'LIST' },
      ],
    }),
    jobTimer: build.query<Timer, RealmArg>({
      query: ({ realm }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.timer), auth: realm }),
      providesTags: [{ type: 'ClientJob', id: 'TIMER' }],
    }),
    startJobTimer: build.mutation<Timer, { id: string } & RealmArg>({
      query: ({ id, realm }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.timerStart(id)), method: 'POST', auth: realm }),
      invalidatesTags: [{ type: 'ClientJob', id: 'TIMER' }],
    }),
    stopJobTimer: build.mutation<{ entry: TimeEntry | null }, RealmArg & { jobId: string }>({
      query: ({ realm }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.timer), method: 'DELETE', auth: realm }),
      invalidatesTags: (_r, _e, a) => [
        { type: 'ClientJob', id: 'TIMER' },
        { type: 'ClientJob', id: a.jobId },
        { type: 'ClientJob', id: 'LIST' },
      ],
    }),
    jobTemplates: build.query<{ templates: JobTemplate[] }, RealmArg>({
      query: ({ realm }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.templates), auth: realm }),
      providesTags: [{ type: 'ClientJob', id: 'TEMPLATES' }],
    }),
    saveJobTemplate: build.mutation<{ template: JobTemplate; message: string }, { kind: string; body: JobTemplateInput } & RealmArg>({
      query: ({ kind, body, realm }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.template(kind)), method: 'PUT', body, auth: realm }),
      invalidatesTags: [
        { type: 'ClientJob', id: 'TEMPLATES' },
        { type: 'ClientJob', id: 'LIST' },
      ],
    }),
    jobStaff: build.query<{ staff: JobStaffMember[] }, RealmArg>({
      query: ({ realm }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.staff), auth: realm }),
      providesTags: [{ type: 'ClientJob', id: 'STAFF' }],
    }),
    changeJobStaff: build.mutation<{ member: JobStaffMember }, { userId: string; body: JobStaffPatch } & RealmArg>({
      query: ({ userId, body, realm }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.staffMember(userId)), method: 'PUT', body, auth: realm }),
      invalidatesTags: [
        { type: 'ClientJob', id: 'STAFF' },
        { type: 'ClientJob', id: 'CAPACITY' },
      ],
    }),
    capacity: build.query<CapacityReply, { from?: string; weeks?: number } & RealmArg>({
      query: ({ realm, ...q }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.capacity), params: clean(q), auth: realm }),
      providesTags: [{ type: 'ClientJob', id: 'CAPACITY' }],
    }),
    delivery: build.query<DeliveryReply, { from: string; to: string } & RealmArg>({
      query: ({ realm, from, to }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.delivery), params: { from, to }, auth: realm }),
      providesTags: [{ type: 'ClientJob', id: 'LIST' }],
    }),
    profitability: build.query<ProfitabilityReply, { month: string } & RealmArg>({
      query: ({ realm, month }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.profitability), params: { month }, auth: realm }),
    }),
    jobSchedules: build.query<JobScheduleList, { clientId: string } & RealmArg>({
      query: ({ realm, clientId }) => ({ url: apiPath(CLIENT_JOBS_ROUTES.schedules(clientId)), auth: realm }),
      providesTags: (_r, _e, a) => [{ type: 'ClientJob', id: `SCHEDULES:${a.clientId}` }],
    }),
    setJobSchedule: build.mutation<JobScheduleList, { clientId: string; kind: string; body: JobScheduleInput } & RealmArg>({
      query: ({ realm, clientId, kind, body }) => ({
        url: apiPath(CLIENT_JOBS_ROUTES.schedule(clientId, kind)),
        method: 'PUT',
        body,
        auth: realm,
      }),
      invalidatesTags: (_r, _e, a) => [{ type: 'ClientJob', id: `SCHEDULES:${a.clientId}` }],
    }),
  }),
});

export const {
  useClientJobsQuery,
  useJobBoardQuery,
  useClientJobQuery,
  useMoveJobMutation,
  useChangeJobMutation,
  useTickJobItemMutation,
  useAddJobNoteMutation,
  useRecordJobTimeMutation,
  useJobTimerQuery,
  useStartJobTimerMutation,
  useStopJobTimerMutation,
  useJobTemplatesQuery,
  useCapacityQuery,
  useProfitabilityQuery,
  useDeliveryQuery,
  useSaveJobTemplateMutation,
  useJobStaffQuery,
  useChangeJobStaffMutation,
  useJobSchedulesQuery,
  useSetJobScheduleMutation,
} = clientJobsApi;
