import { requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  GenerateScriptBodySchema,
  GeneratorInfoSchema,
  rolesFor,
  ScriptListQuerySchema,
  ScriptListSchema,
  ScriptParamsSchema,
  ScriptRecordSchema,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { findScripts, getScript, requestScript, type ScriptsDeps } from '../use-cases/scripts.js';

const ErrorRef = Type.Ref('ErrorBody');
// Marketing material speaks for the practice: admins and managers (and the admin panel session) only.
const mediaRoles = requireRole(rolesFor('media.scripts'));

export function scriptRoutes(app: App, deps: ScriptsDeps) {
  app.post(
    '/scripts',
    {
      preHandler: mediaRoles,
      schema: {
        tags: ['media'],
        summary: 'Generate a video script (generate-video): queued as a job; poll GET /scripts/:id',
        body: GenerateScriptBodySchema,
        response: { 202: ScriptRecordSchema, 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 503: ErrorRef },
      },
    },
    async (request, reply) => reply.status(202).send(await requestScript(deps, requireAuth(request), request.body)),
  );

  app.get(
    '/scripts/:id',
    {
      preHandler: mediaRoles,
      schema: {
        tags: ['media'],
        summary: 'A script: status and progress while it runs, the script when done, the reason when it failed',
        params: ScriptParamsSchema,
        response: { 200: ScriptRecordSchema, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef },
      },
    },
    async (request) => getScript(deps, request.params.id),
  );

  app.get(
    '/scripts',
    {
      preHandler: mediaRoles,
      schema: {
        tags: ['media'],
        summary: 'Earlier scripts, newest first',
        querystring: ScriptListQuerySchema,
        response: { 200: ScriptListSchema, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (request) => findScripts(deps, request.query),
  );

  app.get(
    '/generator',
    {
      preHandler: mediaRoles,
      schema: {
        tags: ['media'],
        summary: 'Which generator new scripts use: an AI provider, or the built-in template generator',
        response: { 200: GeneratorInfoSchema, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async () => ({ generator: deps.generator.kind, model: deps.generator.model }),
  );
}
