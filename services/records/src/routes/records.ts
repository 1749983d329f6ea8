import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  AuditListSchema,
  AuditQuerySchema,
  ChainCheckSchema,
  ClientRetentionBodySchema,
  ClientRetentionSchema,
  RetentionRecordTypeSchema,
  RetentionRuleBodySchema,
  RetentionRunBodySchema,
  RetentionRunSchema,
  RetentionRunsSchema,
  RetentionScheduleSchema,
  rolesFor,
  SubjectAccessBodySchema,
  SubjectAccessListSchema,
  SubjectAccessSchema,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { auditCsv, checkChain, findAuditEntries } from '../use-cases/audit.js';
import type { RecordsDeps } from '../use-cases/deps.js';
import { downloadSubjectAccess, findSubjectAccess, logSubjectAccess } from '../use-cases/subject-access.js';
import { changeClientRetention, changeRule, findRuns, getClientRetention, getSchedule, runRetention } from '../use-cases/retention.js';

const ErrorRef = Type.Ref('ErrorBody');
const E = { 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef, 409: ErrorRef };
const ClientParams = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 64 }) });
const ChainQuery = Type.Object({ client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) });
const { page: _p, page_size: _s, ...csvFilters } = AuditQuerySchema.properties;
const CsvQuery = Type.Object(csvFilters);

const canAudit = requireRole(rolesFor('audit'));
const canExport = requireRole(rolesFor('audit.export'));
const canRetention = requireRole(rolesFor('retention.settings'));
const canSar = requireRole(rolesFor('sar'));

/** The audit trail (read, check, export) and the retention schedule (rules, client holds, runs). */
export function recordsRoutes(app: App, deps: RecordsDeps) {
  app.get(
    '/audit',
    {
      preHandler: canAudit,
      schema: {
        tags: ['records'],
        summary: 'Audit entries: per client, per member of staff, views or changes, by date (London days)',
        querystring: AuditQuerySchema,
        response: { 200: AuditListSchema, ...E },
      },
    },
    async (request) => findAuditEntries(deps, request.query),
  );
  app.get(
    '/audit/export.csv',
    {
      preHandler: canExport,
      schema: {
        tags: ['records'],
        summary: 'The audit entries the filters select, as CSV',
        querystring: CsvQuery,
        // (the content type documented: schemathesis' ST105)
        response: { 200: { description: 'The entries as CSV', content: { 'text/csv': { schema: Type.String() } } }, ...E },
      },
    },
    async (request, reply) => {
      const body = await auditCsv(deps, request.query);
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-trail.csv"')
        .header('cache-control', 'no-store');
      return body;
    },
  );
  app.get(
    '/audit/chain',
    {
      preHandler: canAudit,
      schema: {
        tags: ['records'],
        summary: "Check a client's chain of entries (no client: the practice's own chain)",
        querystring: ChainQuery,
        response: { 200: ChainCheckSchema, ...E },
      },
    },
    async (request) => checkChain(deps, request.query.client_id ?? null),
  );

  app.get(
    '/retention/schedule',
    {
      preHandler: canRetention,
      schema: { tags: ['records'], summary: 'The retention schedule', response: { 200: RetentionScheduleSchema, ...E } },
    },
    async () => getSchedule(deps),
  );
  app.put(
    '/retention/schedule/:recordType',
    {
      preHandler: canRetention,
      schema: {
        tags: ['records'],
        summary: "Change a record type's period and trigger (never below the legal minimum)",
        params: Type.Object({ recordType: RetentionRecordTypeSchema }),
        body: RetentionRuleBodySchema,
        response: { 200: RetentionScheduleSchema, ...E },
      },
    },
    async (request) => changeRule(deps, requireAuth(request), request.params.recordType, request.body),
  );
  app.get(
    '/retention/clients/:clientId',
    {
      preHandler: canRetention,
      schema: {
        tags: ['records'],
        summary: "A client's relationship end and legal hold",
        params: ClientParams,
        response: { 200: ClientRetentionSchema, ...E },
      },
    },
    async (request) => getClientRetention(deps, request.params.clientId),
  );
  app.put(
    '/retention/clients/:clientId',
    {
      preHandler: canRetention,
      schema: {
        tags: ['records'],
        summary: "Set a client's relationship end date or legal hold",
        params: ClientParams,
        body: ClientRetentionBodySchema,
        response: { 200: ClientRetentionSchema, ...E },
      },
    },
    async (request) => changeClientRetention(deps, requireAuth(request), request.params.clientId, request.body),
  );
  app.post(
    '/retention/run',
    {
      preHandler: canRetention,
      schema: {
        tags: ['records'],
        summary: 'Run retention now: a dry run shows what would go; otherwise the services erase it',
        body: RetentionRunBodySchema,
        response: { 200: RetentionRunSchema, ...E },
      },
    },
    async (request) => runRetention(deps, { dryRun: request.body.dry_run, by: requireAuth(request) }),
  );
  app.get(
    '/retention/runs',
    {
      preHandler: canRetention,
      schema: { tags: ['records'], summary: 'Recent runs and their reports', response: { 200: RetentionRunsSchema, ...E } },
    },
    async () => findRuns(deps),
  );

  app.get(
    '/subject-access',
    {
      preHandler: canSar,
      schema: { tags: ['records'], summary: 'Subject-access requests', response: { 200: SubjectAccessListSchema, ...E } },
    },
    async () => findSubjectAccess(deps),
  );
  app.post(
    '/subject-access',
    {
      preHandler: canSar,
      schema: {
        tags: ['records'],
        summary: 'Log a subject-access request for a client user: the services gather their data into one archive',
        body: SubjectAccessBodySchema,
        response: { 201: SubjectAccessSchema, ...E },
      },
    },
    async (request, reply) => reply.code(201).send(await logSubjectAccess(deps, requireAuth(request), request.body)),
  );
  app.get(
    '/subject-access/:id/download',
    {
      preHandler: canSar,
      schema: {
        tags: ['records'],
        summary: 'The archive, downloadable once (the download is recorded)',
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        response: {
          200: { description: 'The archive', content: { 'application/zip': { schema: Type.String({ format: 'binary' }) } } },
          ...E,
        },
      },
    },
    async (request, reply) => {
      const { zip, filename } = await downloadSubjectAccess(deps, requireAuth(request), request.params.id);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(zip);
    },
  );
}
