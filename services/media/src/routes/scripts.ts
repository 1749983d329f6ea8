import { AppError, requireRole, type App, type Db, type JobQueue } from '@countinghouse/kit';
import {
  GenerateScriptBodySchema,
  GeneratorInfoSchema,
  rolesFor,
  ScriptListQuerySchema,
  ScriptListSchema,
  ScriptParamsSchema,
  ScriptRecordSchema,
  type GenerateScriptBody,
  type ScriptListQuery,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { findScriptById, insertScript, listScripts, markFailed, toRecord, toSummary } from '../db/queries.js';
import type { ScriptGenerator } from '../generators/types.js';
import { GENERATE_JOB_ATTEMPTS, GENERATE_JOB_BACKOFF_MS } from '../jobs/generate-script.js';

const ErrorRef = Type.Ref('ErrorBody');
// Marketing material speaks for the practice: admins and managers (and the admin panel session) only.
const mediaRoles = requireRole(rolesFor('media.scripts'));

export const CUSTOM_PROMPT_REQUIRED = 'Please describe the custom video you want.';

export function scriptRoutes(app: App, deps: { db: Db; jobs: JobQueue; generator: ScriptGenerator }) {
  const { db, jobs, generator } = deps;

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
    async (request, reply) => {
      const p = request.principal!;
      const body = request.body as GenerateScriptBody;
      const type = body.type ?? 'custom';
      const prompt = body.customPrompt?.trim() || null;
      if (type === 'custom' && !prompt) {
        throw new AppError('VALIDATION_FAILED', CUSTOM_PROMPT_REQUIRED, [
          { path: 'customPrompt', message: 'is required for a custom video' },
        ]);
      }
      const row = await insertScript(db, { type, prompt, requestedBy: { kind: p.kind, id: p.id, name: p.name } });
      try {
        await jobs.enqueue(
          'media.generate_script',
          { scriptId: row.id },
          { jobId: row.id, attempts: GENERATE_JOB_ATTEMPTS, backoffMs: GENERATE_JOB_BACKOFF_MS },
        );
      } catch (err) {
        request.log.error({ err, scriptId: row.id }, 'media: could not queue script generation');
        const message = 'Script generation could not be started. Please try again in a moment.';
        await markFailed(db, row.id, { error: message, generator: generator.kind, model: generator.model });
        throw new AppError('UPSTREAM_UNAVAILABLE', message);
      }
      return reply.status(202).send(toRecord(row));
    },
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
    async (request) => {
      const { id } = request.params as { id: string };
      const row = await findScriptById(db, id);
      if (!row) throw new AppError('NOT_FOUND', 'Script not found');
      return toRecord(row);
    },
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
    async (request) => {
      const q = request.query as ScriptListQuery;
      const { rows, total } = await listScripts(db, { page: q.page, pageSize: q.page_size });
      return { scripts: rows.map(toSummary), total, page: q.page, page_size: q.page_size };
    },
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
    async () => ({ generator: generator.kind, model: generator.model }),
  );
}
