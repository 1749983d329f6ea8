import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  CapacityQuerySchema,
  CapacityReplySchema,
  ChecklistTickSchema,
  DeliveryQuerySchema,
  DeliveryReplySchema,
  JobBoardQuerySchema,
  JobBoardSchema,
  JobDetailSchema,
  JobKindSchema,
  JobListQuerySchema,
  JobListSchema,
  JobMoveInputSchema,
  JobNoteInputSchema,
  JobPatchSchema,
  JobScheduleInputSchema,
  JobScheduleListSchema,
  RECURRING_JOB_KINDS,
  JobStaffListSchema,
  JobStaffMemberSchema,
  JobStaffPatchSchema,
  JobTemplateInputSchema,
  JobTemplateListSchema,
  JobTemplateSchema,
  ProfitabilityQuerySchema,
  ProfitabilityReplySchema,
  rolesFor,
  TimeEntrySchema,
  TimeEntryInputSchema,
  TimerSchema,
  TimerStopSchema,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { profitabilityCsv } from '../domain/jobs.js';
import type { DeadlinesDeps } from '../use-cases/deps.js';
import {
  addJobNote,
  changeJob,
  changeSchedule,
  changeStaff,
  changeTemplate,
  findBoard,
  findCapacity,
  findDelivery,
  findJobs,
  findProfitability,
  findSchedules,
  findStaff,
  findTemplates,
  getJob,
  getTimer,
  moveJob,
  recordTime,
  startJobTimer,
  stopJobTimer,
  tickChecklist,
} from '../use-cases/jobs.js';

const ErrorRef = Type.Ref('ErrorBody');
const E = { 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef };
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
const tags = ['jobs'];

/** Client jobs (issue 29) under /api/deadlines/jobs: client_jobs (accountants their clients') and client_jobs.settings. */
export function jobRoutes(app: App, deps: DeadlinesDeps) {
  const canWork = requireRole(rolesFor('client_jobs'));
  const canSettle = requireRole(rolesFor('client_jobs.settings'));

  app.get(
    '/jobs',
    {
      preHandler: canWork,
      schema: {
        tags,
        summary: 'The jobs list, filtered and paged',
        querystring: JobListQuerySchema,
        response: { 200: JobListSchema, ...E },
      },
    },
    async (request) => findJobs(deps, requireAuth(request), request.query),
  );
  app.get(
    '/jobs/board',
    {
      preHandler: canWork,
      schema: {
        tags,
        summary: "A kind's board: a column per stage",
        querystring: JobBoardQuerySchema,
        response: { 200: JobBoardSchema, ...E },
      },
    },
    async (request) => findBoard(deps, requireAuth(request), request.query),
  );
  app.get(
    '/jobs/timer',
    { preHandler: canWork, schema: { tags, summary: 'My running timer', response: { 200: TimerSchema, ...E } } },
    async (request) => getTimer(deps, requireAuth(request)),
  );
  app.delete(
    '/jobs/timer',
    {
      preHandler: canWork,
      schema: { tags, summary: 'Stop my timer: its minutes become a time entry', response: { 200: TimerStopSchema, ...E } },
    },
    async (request) => stopJobTimer(deps, requireAuth(request)),
  );
  app.get(
    '/jobs/templates',
    { preHandler: canWork, schema: { tags, summary: 'The job templates of every kind', response: { 200: JobTemplateListSchema, ...E } } },
    async () => findTemplates(deps),
  );
  app.put(
    '/jobs/templates/:kind',
    {
      preHandler: canSettle,
      schema: {
        tags,
        summary: "Change a kind's template (stages, checklists, budget, reviewer role, lead and target days)",
        params: Type.Object({ kind: JobKindSchema }),
        body: JobTemplateInputSchema,
        response: { 200: Type.Object({ template: JobTemplateSchema, message: Type.String() }), ...E },
      },
    },
    async (request) => changeTemplate(deps, requireAuth(request), request.params.kind, request.body),
  );
  app.get(
    '/jobs/staff',
    {
      preHandler: canSettle,
      schema: { tags, summary: 'Staff cost rates, weekly capacity and leave', response: { 200: JobStaffListSchema, ...E } },
    },
    async () => findStaff(deps),
  );
  app.put(
    '/jobs/staff/:userId',
    {
      preHandler: canSettle,
      schema: {
        tags,
        summary: "Set a member of staff's cost rate, weekly capacity and leave",
        params: Type.Object({ userId: Type.String({ minLength: 1, maxLength: 64 }) }),
        body: JobStaffPatchSchema,
        response: { 200: Type.Object({ member: JobStaffMemberSchema }), ...E },
      },
    },
    async (request) => changeStaff(deps, request.params.userId, request.body),
  );
  app.get(
    '/jobs/capacity',
    {
      preHandler: canWork,
      schema: {
        tags,
        summary: 'Hours budgeted against capacity less leave, per week, person and team',
        querystring: CapacityQuerySchema,
        response: { 200: CapacityReplySchema, ...E },
      },
    },
    async (request) => findCapacity(deps, requireAuth(request), request.query),
  );
  app.get(
    '/jobs/profitability',
    {
      preHandler: canSettle,
      schema: {
        tags,
        summary: 'Fee against time cost per client and package for a month',
        querystring: ProfitabilityQuerySchema,
        response: { 200: ProfitabilityReplySchema, ...E },
      },
    },
    async (request) => findProfitability(deps, request.query.month),
  );
  app.get(
    '/jobs/delivery',
    {
      preHandler: canSettle,
      schema: {
        tags,
        summary:
          'Reports of delivery: deadlines met on time vs late per month, jobs by stage, average days per stage, work in progress by person',
        querystring: DeliveryQuerySchema,
        response: { 200: DeliveryReplySchema, ...E },
      },
    },
    async (request) => findDelivery(deps, request.query.from, request.query.to),
  );
  app.get(
    '/jobs/profitability.csv',
    {
      preHandler: canSettle,
      schema: {
        tags,
        summary: 'The profitability report as CSV',
        querystring: ProfitabilityQuerySchema,
        // (the content type documented: schemathesis' ST105)
        response: { 200: { description: 'The report as CSV', content: { 'text/csv': { schema: Type.String() } } }, ...E },
      },
    },
    async (request, reply) => {
      const report = await findProfitability(deps, request.query.month);
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="profitability-${request.query.month}.csv"`)
        .header('cache-control', 'no-store');
      return profitabilityCsv(report.clients);
    },
  );
  const ClientParams = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 64 }) });
  app.get(
    '/jobs/schedules/:clientId',
    {
      preHandler: canWork,
      schema: {
        tags,
        summary: "A client's recurring work (bookkeeping, payroll): monthly schedules",
        params: ClientParams,
        response: { 200: JobScheduleListSchema, ...E },
      },
    },
    async (request) => findSchedules(deps, requireAuth(request), request.params.clientId),
  );
  app.put(
    '/jobs/schedules/:clientId/:kind',
    {
      preHandler: canWork,
      schema: {
        tags,
        summary: 'Set a recurring schedule: the day of each month the work is due, on or off',
        params: Type.Object({
          clientId: Type.String({ minLength: 1, maxLength: 64 }),
          kind: Type.Union(RECURRING_JOB_KINDS.map((k) => Type.Literal(k))),
        }),
        body: JobScheduleInputSchema,
        response: { 200: JobScheduleListSchema, ...E },
      },
    },
    async (request) => changeSchedule(deps, requireAuth(request), request.params.clientId, request.params.kind, request.body),
  );
  app.get(
    '/jobs/:id',
    {
      preHandler: canWork,
      schema: {
        tags,
        summary: 'One job: checklist, notes, time, linked deadline',
        params: IdParams,
        response: { 200: JobDetailSchema, ...E },
      },
    },
    async (request) => getJob(deps, requireAuth(request), request.params.id),
  );
  app.patch(
    '/jobs/:id',
    {
      preHandler: canWork,
      schema: {
        tags,
        summary: 'Reassign a job, mark it waiting on the client, move its due date',
        params: IdParams,
        body: JobPatchSchema,
        response: { 200: JobDetailSchema, ...E },
      },
    },
    async (request) => changeJob(deps, requireAuth(request), request.params.id, request.body),
  );
  app.post(
    '/jobs/:id/move',
    {
      preHandler: canWork,
      schema: {
        tags,
        summary: 'Move a job to a stage (Review assigns the reviewer; Filed with a reference marks its deadline done)',
        params: IdParams,
        body: JobMoveInputSchema,
        response: { 200: JobDetailSchema, ...E, 409: ErrorRef },
      },
    },
    async (request) => moveJob(deps, requireAuth(request), request.params.id, request.body),
  );
  app.post(
    '/jobs/:id/checklist',
    {
      preHandler: canWork,
      schema: {
        tags,
        summary: 'Tick or untick a checklist item',
        params: IdParams,
        body: ChecklistTickSchema,
        response: { 200: JobDetailSchema, ...E },
      },
    },
    async (request) => tickChecklist(deps, requireAuth(request), request.params.id, request.body.index, request.body.done),
  );
  app.post(
    '/jobs/:id/notes',
    {
      preHandler: canWork,
      schema: {
        tags,
        summary: 'Add a note to a job',
        params: IdParams,
        body: JobNoteInputSchema,
        response: { 200: JobDetailSchema, ...E },
      },
    },
    async (request) => addJobNote(deps, requireAuth(request), request.params.id, request.body.text),
  );
  app.post(
    '/jobs/:id/time',
    {
      preHandler: canWork,
      schema: {
        tags,
        summary: 'Record time on a job (minutes)',
        params: IdParams,
        body: TimeEntryInputSchema,
        response: { 200: Type.Object({ entry: TimeEntrySchema }), ...E },
      },
    },
    async (request) => recordTime(deps, requireAuth(request), request.params.id, request.body),
  );
  app.post(
    '/jobs/:id/timer',
    {
      preHandler: canWork,
      schema: { tags, summary: 'Start my timer on a job', params: IdParams, response: { 200: TimerSchema, ...E, 409: ErrorRef } },
    },
    async (request) => startJobTimer(deps, requireAuth(request), request.params.id),
  );
}
