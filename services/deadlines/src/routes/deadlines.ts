import { AppError, requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  CalendarFeedSchema,
  ClientDeadlinesSchema,
  ClientTaxRecordSchema,
  ClientTaxSaveReplySchema,
  CompanyLookupBodySchema,
  CompanyLookupSchema,
  CompanySearchQuerySchema,
  CompanySearchResultSchema,
  DEADLINES_MESSAGES,
  DeadlineDoneInputSchema,
  DeadlineListQuerySchema,
  DeadlineListSchema,
  DeadlineSettingsSchema,
  FeedParamsSchema,
  IdentityListQuerySchema,
  IdentityListSchema,
  MarkDoneReplySchema,
  NextDeadlinesQuerySchema,
  NextDeadlinesReplySchema,
  rolesFor,
  TaxProfileInputSchema,
  WorkQuerySchema,
  WorkReplySchema,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { CompaniesHouseError } from '../adapters/companies-house/client.js';
import { readLeadDays, writeLeadDays } from '../db/queries.js';
import { getCalendarFeed, renderFeed, resetCalendarFeed } from '../use-cases/calendar.js';
import { getClientRecord, refreshClientCompany, saveTaxProfile } from '../use-cases/client-record.js';
import { lookupCompany } from '../use-cases/company-lookup.js';
import {
  findClientDeadlines,
  findDeadlines,
  findMyDeadlines,
  findNextDeadlines,
  findWorkDeadlines,
  markDeadlineDone,
  undoDeadlineDone,
} from '../use-cases/deadlines.js';
import type { DeadlinesDeps } from '../use-cases/deps.js';
import { findIdentityPeople } from '../use-cases/identity-verification.js';

const ErrorRef = Type.Ref('ErrorBody');
const E = { 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef };
const ClientParams = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 64 }) });
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

const canView = requireRole(rolesFor('deadlines.view'));
const canManage = requireRole(rolesFor('deadlines.manage'));
const canSettle = requireRole(rolesFor('deadlines.settings'));
// Staff-side views (the practice list, the calendar feed): every role but client.
const staffView = requireRole(rolesFor('deadlines.manage'));
const clientOnly = requireRole(['client'], { kind: 'user' });
const canViewIdentity = requireRole(rolesFor('identity_verification.view'));

export function deadlineRoutes(app: App, deps: DeadlinesDeps) {
  app.get(
    '/',
    {
      preHandler: staffView,
      schema: {
        tags: ['deadlines'],
        summary: "Every visible client's coming deadlines; accountants see their assigned clients only",
        querystring: DeadlineListQuerySchema,
        response: { 200: DeadlineListSchema, ...E },
      },
    },
    async (request) => findDeadlines(deps, requireAuth(request), request.query),
  );

  app.get(
    '/identity-verification',
    {
      preHandler: canViewIdentity,
      schema: {
        tags: ['deadlines'],
        summary: 'Every director and PSC of every visible client: Companies House identity verification status and due date',
        querystring: IdentityListQuerySchema,
        response: { 200: IdentityListSchema, ...E },
      },
    },
    async (request) => findIdentityPeople(deps, requireAuth(request), request.query),
  );

  app.post(
    '/:id/done',
    {
      // The filing record is optional: a POST with no body records today, no reference, the practice.
      preValidation: async (request) => {
        request.body ??= {};
      },
      preHandler: canManage,
      schema: {
        tags: ['deadlines'],
        summary: 'Mark a deadline done: who and when are kept, with the filing date, a reference, or filed by the previous agent',
        params: IdParams,
        body: DeadlineDoneInputSchema,
        response: { 200: MarkDoneReplySchema, ...E, 409: ErrorRef },
      },
    },
    async (request) => markDeadlineDone(deps, requireAuth(request), request.params.id, request.body),
  );

  app.post(
    '/:id/undo',
    {
      preHandler: canManage,
      schema: {
        tags: ['deadlines'],
        summary: 'Undo marking a deadline done (it is open again)',
        params: IdParams,
        response: { 200: MarkDoneReplySchema, ...E, 409: ErrorRef },
      },
    },
    async (request) => undoDeadlineDone(deps, requireAuth(request), request.params.id),
  );

  app.get(
    '/next',
    {
      preHandler: staffView,
      schema: {
        tags: ['deadlines'],
        summary: "Each listed client's next open deadline (overdue first), for the clients list",
        querystring: NextDeadlinesQuerySchema,
        response: { 200: NextDeadlinesReplySchema, ...E },
      },
    },
    async (request) => findNextDeadlines(deps, requireAuth(request), request.query),
  );

  app.get(
    '/work',
    {
      preHandler: requireRole(rolesFor('work.view')),
      schema: {
        tags: ['deadlines'],
        summary: 'My work: open deadlines overdue or due by the end of next week (mine: my clients; everyone: staff)',
        querystring: WorkQuerySchema,
        response: { 200: WorkReplySchema, ...E },
      },
    },
    async (request) => findWorkDeadlines(deps, requireAuth(request), request.query),
  );

  app.get(
    '/mine',
    {
      preHandler: clientOnly,
      schema: { tags: ['deadlines'], summary: "The signed-in client's next deadlines", response: { 200: ClientDeadlinesSchema, ...E } },
    },
    async (request) => findMyDeadlines(deps, requireAuth(request)),
  );

  app.get(
    '/clients/:clientId',
    {
      preHandler: canView,
      schema: {
        tags: ['deadlines'],
        summary: "A client's tax profile and Companies House details",
        params: ClientParams,
        response: { 200: ClientTaxRecordSchema, ...E },
      },
    },
    async (request) => getClientRecord(deps, requireAuth(request), request.params.clientId),
  );

  app.put(
    '/clients/:clientId',
    {
      preHandler: canManage,
      schema: {
        tags: ['deadlines'],
        summary: "Save a client's tax profile; a new company number is read from Companies House",
        params: ClientParams,
        body: TaxProfileInputSchema,
        response: { 200: ClientTaxSaveReplySchema, ...E, 503: ErrorRef },
      },
    },
    async (request) => saveTaxProfile(deps, requireAuth(request), request.params.clientId, request.body),
  );

  app.post(
    '/clients/:clientId/refresh',
    {
      preHandler: canManage,
      schema: {
        tags: ['deadlines'],
        summary: 'Read the company from Companies House now',
        params: ClientParams,
        response: { 200: ClientTaxSaveReplySchema, ...E, 503: ErrorRef },
      },
    },
    async (request) => refreshClientCompany(deps, requireAuth(request), request.params.clientId),
  );

  app.get(
    '/clients/:clientId/deadlines',
    {
      preHandler: canView,
      schema: {
        tags: ['deadlines'],
        summary: "A client's deadlines",
        params: ClientParams,
        response: { 200: ClientDeadlinesSchema, ...E },
      },
    },
    async (request) => findClientDeadlines(deps, requireAuth(request), request.params.clientId),
  );

  app.get(
    '/companies-house/search',
    {
      preHandler: canManage,
      schema: {
        tags: ['deadlines'],
        summary: 'Search Companies House by company name',
        querystring: CompanySearchQuerySchema,
        response: { 200: CompanySearchResultSchema, ...E, 503: ErrorRef },
      },
    },
    async (request) => {
      if (!deps.companiesHouse) throw new AppError('NOT_CONFIGURED', DEADLINES_MESSAGES.companiesHouseNotConfigured);
      try {
        return await deps.companiesHouse.search(request.query.q);
      } catch (err) {
        if (err instanceof CompaniesHouseError) throw new AppError('UPSTREAM_UNAVAILABLE', DEADLINES_MESSAGES.companiesHouseUnavailable);
        throw err;
      }
    },
  );

  // Public (proto/src/routes.ts PUBLIC_API): the sign-up form, before the visitor has an account.
  app.post(
    '/companies-house/lookup',
    {
      schema: {
        tags: ['deadlines'],
        summary: 'One company on the Companies House register by its number (sign-up)',
        body: CompanyLookupBodySchema,
        response: { 200: CompanyLookupSchema, ...E, 503: ErrorRef },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return lookupCompany(deps, request.body.company_number);
    },
  );

  app.get(
    '/calendar',
    {
      preHandler: staffView,
      schema: { tags: ['deadlines'], summary: 'Whether the caller has a calendar feed', response: { 200: CalendarFeedSchema, ...E } },
    },
    async (request) => getCalendarFeed(deps, requireAuth(request)),
  );

  app.post(
    '/calendar/reset',
    {
      preHandler: staffView,
      schema: {
        tags: ['deadlines'],
        summary: 'Make a new secret calendar address (the old one stops working); shown once',
        response: { 200: CalendarFeedSchema, ...E },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return resetCalendarFeed(deps, requireAuth(request));
    },
  );

  app.get(
    '/feed/:token',
    {
      schema: {
        tags: ['deadlines'],
        summary: 'iCalendar feed of a member of staff (no sign-in: the secret address is the key)',
        security: [],
        params: FeedParamsSchema,
        response: { 200: Type.String(), 400: ErrorRef, 404: ErrorRef },
      },
    },
    async (request, reply) => {
      const body = await renderFeed(deps, request.params.token);
      reply.header('content-type', 'text/calendar; charset=utf-8').header('cache-control', 'private, max-age=300');
      return body;
    },
  );

  app.get(
    '/settings',
    {
      preHandler: staffView,
      schema: { tags: ['deadlines'], summary: 'How many days ahead a task is opened', response: { 200: DeadlineSettingsSchema, ...E } },
    },
    async () => ({ task_lead_days: await readLeadDays(deps.db) }),
  );

  app.put(
    '/settings',
    {
      preHandler: canSettle,
      schema: {
        tags: ['deadlines'],
        summary: 'Change how many days ahead a task is opened (managers)',
        body: DeadlineSettingsSchema,
        response: { 200: DeadlineSettingsSchema, ...E },
      },
    },
    async (request) => {
      await writeLeadDays(deps.db, request.body.task_lead_days);
      return { task_lead_days: await readLeadDays(deps.db) };
    },
  );
}
