import { enqueueEvent, PermanentJobError, type Db, type JobProcessor } from '@countinghouse/kit';
import { renderScriptText } from '@countinghouse/proto';
import type { Logger } from 'pino';
import { findScriptById, markCompleted, markFailed, markRunning, setProgress } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import type { PracticeFacts } from '../domain/facts.js';
import { GenerationError, type ScriptGenerator } from '../adapters/generators/types.js';

/** Whole-job tries: a crash or a database hiccup mid-run gets one more go; provider trouble is retried inside. */
export const GENERATE_JOB_ATTEMPTS = 2;
export const GENERATE_JOB_BACKOFF_MS = 2000;

export const UNEXPECTED_GENERATION_ERROR = 'Something went wrong while generating the script. Please try again.';

export interface GenerateScriptDeps {
  db: Db;
  generator: ScriptGenerator;
  facts: () => PracticeFacts;
  logger: Logger;
}

/**
 * media.generate_script: claim the row, generate with progress, then write the result and its event
 * in one transaction. A finished row is left alone, so a redelivered job is harmless.
 */
export function generateScriptProcessor(deps: GenerateScriptDeps): JobProcessor<'media.generate_script'> {
  const { db, generator, logger } = deps;
  return async ({ scriptId }, ctx) => {
    const existing = await findScriptById(db, scriptId);
    if (!existing) throw new PermanentJobError(`No script ${scriptId}`);
    const row = await markRunning(db, scriptId, 5);
    if (!row) return { status: existing.status };
    await ctx.reportProgress(5);
    const type = row.type;
    const actor = { kind: row.requestedByKind, id: row.requestedById };
    const progress = async (pct: number) => {
      await setProgress(db, scriptId, pct);
      await ctx.reportProgress(pct);
    };

    const fail = async (error: string) => {
      await db.transaction(async (tx) => {
        await markFailed(tx, scriptId, { error, generator: generator.kind, model: generator.model });
        await enqueueEvent(tx, SCHEMA, 'media.script_failed', { scriptId, type, error, requestedBy: actor }, { actor, key: scriptId });
      });
    };

    const facts = deps.facts();
    try {
      const result = await generator.generate({ type, prompt: row.prompt, facts }, progress);
      await progress(90);
      const text = renderScriptText(result.script, { type, generator: generator.kind, practiceName: facts.name });
      await db.transaction(async (tx) => {
        await markCompleted(tx, scriptId, { script: result.script, text, generator: generator.kind, model: result.model });
        await enqueueEvent(
          tx,
          SCHEMA,
          'media.script_generated',
          {
            scriptId,
            type,
            title: result.script.title,
            totalSeconds: result.script.total_seconds,
            generator: generator.kind,
            model: result.model,
            requestedBy: actor,
          },
          { actor, key: scriptId },
        );
      });
      return { status: 'completed' };
    } catch (err) {
      if (err instanceof GenerationError) {
        await fail(err.message);
        throw new PermanentJobError(err.message);
      }
      if (ctx.attempt < GENERATE_JOB_ATTEMPTS) throw err;
      logger.error({ err, scriptId }, 'media: script generation failed');
      await fail(UNEXPECTED_GENERATION_ERROR);
      throw new PermanentJobError(UNEXPECTED_GENERATION_ERROR);
    }
  };
}
