import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  LetterAuditListSchema,
  ClientLettersSchema,
  EngagementOverviewSchema,
  LetterSchema,
  LetterStatusesSchema,
  MyLettersSchema,
  rolesFor,
  SendReplySchema,
  SignBodySchema,
  SignReplySchema,
  TemplatesSaveBodySchema,
  TemplatesSaveReplySchema,
  TemplatesSchema,
  TermsBodySchema,
  TermsReplySchema,
  WorkQuerySchema,
  WorkReplySchema,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { EngagementDeps, RequestOrigin } from '../use-cases/deps.js';
import {
  downloadSignedPdf,
  findAudit,
  findClientLetters,
  findMyLetters,
  findStatuses,
  getLetter,
  getOverview,
} from '../use-cases/find-letters.js';
import { sendClientLetter, sendNewTerms } from '../use-cases/send-letters.js';
import { pdfFilename, signLetter } from '../use-cases/sign-letter.js';
import { getTemplates, saveTemplates } from '../use-cases/templates.js';
import { termsFor } from '../use-cases/terms.js';
import { findWorkLetters } from '../use-cases/work.js';

const ErrorRef = Type.Ref('ErrorBody');
const E = { 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef };
const ClientParams = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 64 }) });
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

const canView = requireRole(rolesFor('engagement.view'));
const canSign = requireRole(rolesFor('engagement.sign'), { kind: 'user' });
const canSend = requireRole(rolesFor('engagement.send'));
const canEditTemplates = requireRole(rolesFor('engagement.templates'));
// Practice-wide figures (the control panel): the roles that see every client.
const practiceView = requireRole(rolesFor('engagement.send'));

function originOf(request: FastifyRequest): RequestOrigin {
  const ua = request.headers['user-agent'];
  return { ip: request.ip || null, userAgent: typeof ua === 'string' ? ua : null };
}

/**
 * The engagement routes. There is deliberately no route that changes or deletes a letter: a sent
 * letter changes only by being signed, and a signed one never (the database refuses it too).
 */
export function engagementRoutes(app: App, deps: EngagementDeps) {
  const r = app;

  r.get(
    '/mine',
    {
      preHandler: canSign,
      schema: { tags: ['engagement'], summary: "The signed-in client's engagement letters", response: { 200: MyLettersSchema, ...E } },
    },
    async (request) => findMyLetters(deps, requireAuth(request)),
  );

  r.post(
    '/terms',
    {
      preHandler: canSign,
      schema: {
        tags: ['engagement'],
        summary: 'Terms before payment: the letter for the package the client chose (made if needed), to sign before paying',
        body: TermsBodySchema,
        response: { 200: TermsReplySchema, ...E, 409: ErrorRef },
      },
    },
    async (request) => termsFor(deps, requireAuth(request), request.body.package_name),
  );

  r.get(
    '/letters/:id',
    {
      preHandler: canView,
      schema: {
        tags: ['engagement'],
        summary: 'One letter with its text (the view is audited)',
        params: IdParams,
        response: { 200: LetterSchema, ...E },
      },
    },
    async (request) => getLetter(deps, requireAuth(request), request.params.id, originOf(request)),
  );

  r.post(
    '/letters/:id/sign',
    {
      preHandler: canSign,
      schema: {
        tags: ['engagement'],
        summary: 'Sign the newest version of your letter: full name typed and the agreement ticked',
        params: IdParams,
        body: SignBodySchema,
        response: { 200: SignReplySchema, ...E, 409: ErrorRef },
      },
    },
    async (request) => signLetter(deps, requireAuth(request), request.params.id, request.body, originOf(request)),
  );

  r.get(
    '/letters/:id/pdf',
    {
      preHandler: canView,
      schema: {
        tags: ['engagement'],
        summary: 'The signed PDF, exactly as made at signing (the download is audited)',
        params: IdParams,
        response: { 404: ErrorRef, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (request, reply) => {
      const { pdf, version, signedOn } = await downloadSignedPdf(deps, requireAuth(request), request.params.id, originOf(request));
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${pdfFilename(version, signedOn)}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(pdf);
    },
  );

  r.get(
    '/letters/:id/audit',
    {
      preHandler: canSend,
      schema: {
        tags: ['engagement'],
        summary: "A letter's audit trail: sent, viewed, signed, downloaded, reminded",
        params: IdParams,
        response: { 200: LetterAuditListSchema, ...E },
      },
    },
    async (request) => findAudit(deps, requireAuth(request), request.params.id),
  );

  r.get(
    '/clients/:clientId',
    {
      preHandler: canView,
      schema: {
        tags: ['engagement'],
        summary: "A client's letter status and every version",
        params: ClientParams,
        response: { 200: ClientLettersSchema, ...E },
      },
    },
    async (request) => findClientLetters(deps, requireAuth(request), request.params.clientId),
  );

  r.post(
    '/clients/:clientId/send',
    {
      preHandler: canSend,
      schema: {
        tags: ['engagement'],
        summary: 'Send the client a new letter version from the current templates',
        params: ClientParams,
        response: { 200: Type.Object({ letters: ClientLettersSchema, message: Type.String() }), ...E, 409: ErrorRef },
      },
    },
    async (request) => sendClientLetter(deps, requireAuth(request), request.params.clientId),
  );

  r.get(
    '/work',
    {
      preHandler: requireRole(rolesFor('work.view')),
      schema: {
        tags: ['engagement'],
        summary: 'My work: letters awaiting signature, due 14 days after sending (mine: my clients; everyone: staff)',
        querystring: WorkQuerySchema,
        response: { 200: WorkReplySchema, ...E },
      },
    },
    async (request) => findWorkLetters(deps, requireAuth(request), request.query),
  );

  r.get(
    '/statuses',
    {
      preHandler: canView,
      schema: { tags: ['engagement'], summary: "Every visible client's letter status", response: { 200: LetterStatusesSchema, ...E } },
    },
    async (request) => findStatuses(deps, requireAuth(request)),
  );

  r.get(
    '/overview',
    {
      preHandler: practiceView,
      schema: {
        tags: ['engagement'],
        summary: 'Clients awaiting signature (control panel)',
        response: { 200: EngagementOverviewSchema, ...E },
      },
    },
    async () => getOverview(deps),
  );

  r.get(
    '/templates',
    {
      preHandler: canEditTemplates,
      schema: {
        tags: ['engagement'],
        summary: "The practice's letter templates (current version)",
        response: { 200: TemplatesSchema, ...E },
      },
    },
    async () => getTemplates(deps),
  );

  r.put(
    '/templates',
    {
      preHandler: canEditTemplates,
      schema: {
        tags: ['engagement'],
        summary: 'Save the templates as a new version (letters already sent are not changed)',
        body: TemplatesSaveBodySchema,
        response: { 200: TemplatesSaveReplySchema, ...E, 409: ErrorRef },
      },
    },
    async (request) => saveTemplates(deps, requireAuth(request), request.body.version, request.body.templates),
  );

  r.post(
    '/templates/send',
    {
      preHandler: canEditTemplates,
      schema: {
        tags: ['engagement'],
        summary: 'Send the current templates to every client whose letter was made from older ones',
        response: { 200: SendReplySchema, ...E },
      },
    },
    async (request) => sendNewTerms(deps, requireAuth(request)),
  );
}
