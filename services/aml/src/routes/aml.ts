import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  AmlFileSchema,
  AmlListQuerySchema,
  AmlListSchema,
  AmlReportSchema,
  AmlReturnInputSchema,
  AmlStatusesQuerySchema,
  AmlStatusesSchema,
  AmlVersionSchema,
  ApproveInputSchema,
  ClientParamsSchema,
  DeletableListSchema,
  DeleteFileInputSchema,
  DeleteReplySchema,
  DeletionListSchema,
  EvidenceInputSchema,
  PersonInputSchema,
  PersonParamsSchema,
  RiskAnswersSchema,
  rolesFor,
  VersionParamsSchema,
  WorkQuerySchema,
  WorkReplySchema,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import type { AmlDeps } from '../use-cases/deps.js';
import {
  addEvidence,
  addPerson,
  answerRisk,
  approveFile,
  removePerson,
  returnFile,
  startNewVersion,
  submitFile,
  updatePerson,
} from '../use-cases/edit-file.js';
import { amlReport, findFiles, findStatuses } from '../use-cases/list-files.js';
import { getFile, getVersion } from '../use-cases/read-file.js';
import { deleteAmlFile, findDeletable, findDeletions } from '../use-cases/retention.js';
import { findWorkAml } from '../use-cases/work.js';

const ErrorRef = Type.Ref('ErrorBody');
const E = { 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef };
const E409 = { ...E, 409: ErrorRef };

// Every route's guard comes from the permissions table (proto/src/permissions.ts).
const canView = requireRole(rolesFor('aml.view'));
const canManage = requireRole(rolesFor('aml.manage'));
const canApprove = requireRole(rolesFor('aml.approve'));
const canDelete = requireRole(rolesFor('aml.delete'));
const tags = ['aml'];

export function amlRoutes(app: App, deps: AmlDeps) {
  app.get(
    '/',
    {
      preHandler: canView,
      schema: {
        tags,
        summary: "Every current client's due diligence (accountants: their assigned clients), filtered, with counts",
        querystring: AmlListQuerySchema,
        response: { 200: AmlListSchema, ...E },
      },
    },
    async (request) => findFiles(deps, requireAuth(request), request.query),
  );

  app.get(
    '/work',
    {
      preHandler: requireRole(rolesFor('work.view')),
      schema: {
        tags,
        summary: 'My work: files awaiting the MLRO, and reviews falling due by the end of next week',
        querystring: WorkQuerySchema,
        response: { 200: WorkReplySchema, ...E },
      },
    },
    async (request) => findWorkAml(deps, requireAuth(request), request.query),
  );

  app.get(
    '/statuses',
    {
      preHandler: canView,
      schema: {
        tags,
        summary: 'Due diligence status of the given clients (comma-separated ids, at most 200)',
        querystring: AmlStatusesQuerySchema,
        response: { 200: AmlStatusesSchema, ...E },
      },
    },
    async (request) => findStatuses(deps, requireAuth(request), request.query.client_ids.split(',')),
  );

  app.get(
    '/report',
    {
      preHandler: canView,
      schema: { tags, summary: 'Current clients by due diligence status and risk', response: { 200: AmlReportSchema, ...E } },
    },
    async (request) => amlReport(deps, requireAuth(request)),
  );

  app.get(
    '/clients/:clientId',
    {
      preHandler: canView,
      schema: {
        tags,
        summary: "A client's AML file: the latest version, the version list, retention and the audit trail (the view is recorded)",
        params: ClientParamsSchema,
        response: { 200: AmlFileSchema, ...E },
      },
    },
    async (request) => getFile(deps, requireAuth(request), request.params.clientId),
  );

  app.get(
    '/clients/:clientId/versions/:version',
    {
      preHandler: canView,
      schema: { tags, summary: 'One version of a file, read only', params: VersionParamsSchema, response: { 200: AmlVersionSchema, ...E } },
    },
    async (request) => getVersion(deps, requireAuth(request), request.params.clientId, request.params.version),
  );

  app.post(
    '/clients/:clientId/versions',
    {
      preHandler: canManage,
      schema: {
        tags,
        summary: 'Start the next version (from an approved one)',
        params: ClientParamsSchema,
        response: { 200: AmlFileSchema, ...E409 },
      },
    },
    async (request) => startNewVersion(deps, requireAuth(request), request.params.clientId),
  );

  app.post(
    '/clients/:clientId/people',
    {
      preHandler: canManage,
      schema: {
        tags,
        summary: 'Add a person to verify (an approved file gets a new version)',
        params: ClientParamsSchema,
        body: PersonInputSchema,
        response: { 200: AmlFileSchema, ...E409 },
      },
    },
    async (request) => addPerson(deps, requireAuth(request), request.params.clientId, request.body),
  );

  app.put(
    '/clients/:clientId/people/:personId',
    {
      preHandler: canManage,
      schema: {
        tags,
        summary: "Change a person's details",
        params: PersonParamsSchema,
        body: PersonInputSchema,
        response: { 200: AmlFileSchema, ...E409 },
      },
    },
    async (request) => updatePerson(deps, requireAuth(request), request.params.clientId, request.params.personId, request.body),
  );

  app.delete(
    '/clients/:clientId/people/:personId',
    {
      preHandler: canManage,
      schema: {
        tags,
        summary: 'Remove a person from the working version',
        params: PersonParamsSchema,
        response: { 200: AmlFileSchema, ...E409 },
      },
    },
    async (request) => removePerson(deps, requireAuth(request), request.params.clientId, request.params.personId),
  );

  app.post(
    '/clients/:clientId/people/:personId/evidence',
    {
      preHandler: canManage,
      schema: {
        tags,
        summary: 'Record identity evidence uploaded through the documents service (type aml_evidence) and how it was checked',
        params: PersonParamsSchema,
        body: EvidenceInputSchema,
        response: { 200: AmlFileSchema, ...E409 },
      },
    },
    async (request) => addEvidence(deps, requireAuth(request), request.params.clientId, request.params.personId, request.body),
  );

  app.put(
    '/clients/:clientId/risk',
    {
      preHandler: canManage,
      schema: {
        tags,
        summary: 'Answer the risk questions: scored into low, medium or high risk and a due diligence level',
        params: ClientParamsSchema,
        body: RiskAnswersSchema,
        response: { 200: AmlFileSchema, ...E409 },
      },
    },
    async (request) => answerRisk(deps, requireAuth(request), request.params.clientId, request.body),
  );

  app.post(
    '/clients/:clientId/submit',
    {
      preHandler: canManage,
      schema: {
        tags,
        summary: "Send the working version for the MLRO's approval",
        params: ClientParamsSchema,
        response: { 200: AmlFileSchema, ...E409 },
      },
    },
    async (request) => submitFile(deps, requireAuth(request), request.params.clientId),
  );

  app.post(
    '/clients/:clientId/approve',
    {
      preHandler: canApprove,
      schema: {
        tags,
        summary: 'Approve the version awaiting approval, with a note (the MLRO only)',
        params: ClientParamsSchema,
        body: ApproveInputSchema,
        response: { 200: AmlFileSchema, ...E409 },
      },
    },
    async (request) => approveFile(deps, requireAuth(request), request.params.clientId, request.body),
  );

  app.post(
    '/clients/:clientId/return',
    {
      preHandler: canApprove,
      schema: {
        tags,
        summary: 'Return the version awaiting approval to draft, with a reason (the MLRO only)',
        params: ClientParamsSchema,
        body: AmlReturnInputSchema,
        response: { 200: AmlFileSchema, ...E409 },
      },
    },
    async (request) => returnFile(deps, requireAuth(request), request.params.clientId, request.body),
  );

  app.get(
    '/retention/deletable',
    {
      preHandler: canDelete,
      schema: {
        tags,
        summary: 'Files past their five-year retention period (administrators)',
        response: { 200: DeletableListSchema, ...E },
      },
    },
    async (request) => findDeletable(deps, requireAuth(request)),
  );

  app.get(
    '/retention/deletions',
    {
      preHandler: canDelete,
      schema: { tags, summary: 'The record of deleted files (administrators)', response: { 200: DeletionListSchema, ...E } },
    },
    async (request) => findDeletions(deps, requireAuth(request)),
  );

  app.delete(
    '/clients/:clientId',
    {
      preHandler: canDelete,
      schema: {
        tags,
        summary: "Delete a file after its retention period, confirmed with the client's name; refused with the reason before",
        params: ClientParamsSchema,
        body: DeleteFileInputSchema,
        response: { 200: DeleteReplySchema, ...E409 },
      },
    },
    async (request) => deleteAmlFile(deps, requireAuth(request), request.params.clientId, request.body),
  );
}
