import {
  FAILED_JOBS_SHOWN,
  JOBS_MESSAGES,
  JobsOverviewSchema,
  rolesFor,
  RetryJobParamsSchema,
  RetryJobResponseSchema,
  type JobsOverview,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { authContext, type App } from '../app.js';
import { requireRole } from '../auth.js';
import { AppError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { isJobName } from './core.js';

const ErrorRef = Type.Ref('ErrorBody');
const admins = requireRole(rolesFor('jobs'));

/**
 * The job status page's API (under /api/jobs): every schedule with its last and next run, the jobs
 * that failed for good, and Retry. All-in-one: one PostgreSQL holds every queue. Distributed: the
 * queues are BullMQ's in the one Redis and the schedules are rows in PostgreSQL, so any one process
 * answers for all of them (docs/decisions.md).
 */
export async function jobsAdminPlugin(app: App, opts: { runtime: Runtime }) {
  const { jobs } = opts.runtime;
  await app.register(authContext, { verifier: opts.runtime.verifier });

  app.get(
    '/',
    {
      preHandler: admins,
      schema: {
        tags: ['jobs'],
        summary: 'Schedules with their last and next run, and the jobs that failed for good (admin)',
        response: { 200: JobsOverviewSchema, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (_request, reply): Promise<JobsOverview> => {
      reply.header('cache-control', 'no-store');
      const [schedules, failed] = await Promise.all([jobs.listSchedules(), jobs.listFailed(FAILED_JOBS_SHOWN)]);
      return { queue: jobs.kind, schedules, failed };
    },
  );

  app.post(
    '/failed/:name/:id/retry',
    {
      preHandler: admins,
      schema: {
        tags: ['jobs'],
        summary: 'Run a failed job once more (admin)',
        params: RetryJobParamsSchema,
        response: { 202: RetryJobResponseSchema, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef },
      },
    },
    async (request, reply) => {
      const { name, id } = request.params;
      if (!isJobName(name) || !(await jobs.retry(name, id))) throw new AppError('NOT_FOUND', JOBS_MESSAGES.retryNotFound);
      request.log.info({ job: name, id, by: request.principal?.id }, 'failed job retried');
      return reply.status(202).send({ retried: true as const, id });
    },
  );
}
