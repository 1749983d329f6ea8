import { AppError, type Db, type JobQueue, type Principal } from '@countinghouse/kit';
import type { GenerateScriptBody, ScriptList, ScriptListQuery, ScriptRecord } from '@countinghouse/proto';
import type { Logger } from 'pino';
import { findScriptById, insertScript, listScripts, markFailed, toRecord, toSummary } from '../db/queries.js';
import type { ScriptGenerator } from '../adapters/generators/types.js';
import { GENERATE_JOB_ATTEMPTS, GENERATE_JOB_BACKOFF_MS } from '../jobs/generate-script.js';

export interface ScriptsDeps {
  db: Db;
  jobs: JobQueue;
  generator: ScriptGenerator;
  logger: Logger;
}

export const CUSTOM_PROMPT_REQUIRED = 'Please describe the custom video you want.';
const NOT_STARTED = 'Script generation could not be started. Please try again in a moment.';

/**
 * Record a script request and queue its generation (the job id is the script id). When the queue
 * refuses, the row is marked failed with the reason, so no request stays 'queued' for ever.
 */
export async function requestScript(deps: ScriptsDeps, principal: Principal, input: GenerateScriptBody): Promise<ScriptRecord> {
  const type = input.type ?? 'custom';
  const prompt = input.customPrompt?.trim() || null;
  if (type === 'custom' && !prompt) {
    throw new AppError('VALIDATION_FAILED', CUSTOM_PROMPT_REQUIRED, [{ path: 'customPrompt', message: 'is required for a custom video' }]);
  }
  const row = await insertScript(deps.db, { type, prompt, requestedBy: { kind: principal.kind, id: principal.id, name: principal.name } });
  try {
    await deps.jobs.enqueue(
      'media.generate_script',
      { scriptId: row.id },
      { jobId: row.id, attempts: GENERATE_JOB_ATTEMPTS, backoffMs: GENERATE_JOB_BACKOFF_MS },
    );
  } catch (err) {
    deps.logger.error({ err, scriptId: row.id }, 'media: could not queue script generation');
    await markFailed(deps.db, row.id, { error: NOT_STARTED, generator: deps.generator.kind, model: deps.generator.model });
    throw new AppError('UPSTREAM_UNAVAILABLE', NOT_STARTED);
  }
  return toRecord(row);
}

export async function getScript(deps: Pick<ScriptsDeps, 'db'>, id: string): Promise<ScriptRecord> {
  const row = await findScriptById(deps.db, id);
  if (!row) throw new AppError('NOT_FOUND', 'Script not found');
  return toRecord(row);
}

export async function findScripts(deps: Pick<ScriptsDeps, 'db'>, query: ScriptListQuery): Promise<ScriptList> {
  const { rows, total } = await listScripts(deps.db, { page: query.page, pageSize: query.page_size });
  return { scripts: rows.map(toSummary), total, page: query.page, page_size: query.page_size };
}
