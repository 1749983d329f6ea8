import { JOBS_ROUTES, type JobsOverview, type RetryJobResponse } from '@countinghouse/proto';
import { api, apiPath } from '../../app/api';

/** The job status page (administrators): schedules, failed jobs, Retry. */
export const jobsApi = api.injectEndpoints({
  endpoints: (build) => ({
    jobsOverview: build.query<JobsOverview, void>({
      query: () => apiPath(JOBS_ROUTES.overview),
      providesTags: [{ type: 'Job', id: 'OVERVIEW' }],
    }),
    retryJob: build.mutation<RetryJobResponse, { name: string; id: string }>({
      query: ({ name, id }) => ({ url: apiPath(JOBS_ROUTES.retry(name, id)), method: 'POST' }),
      invalidatesTags: [{ type: 'Job', id: 'OVERVIEW' }],
    }),
  }),
});

export const { useJobsOverviewQuery, useRetryJobMutation } = jobsApi;
