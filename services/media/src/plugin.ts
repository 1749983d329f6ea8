import { authContext, runMigrations, type App, type Runtime } from '@countinghouse/kit';
import { fileURLToPath } from 'node:url';
import { unfinishedScriptIds } from './db/queries.js';
import { SCHEMA } from './db/schema.js';
import { buildPracticeFacts, type PracticeContact } from './domain/facts.js';
import { OpenAiScriptGenerator, type OpenAiOptions } from './adapters/generators/openai.js';
import { templateGenerator } from './adapters/generators/template.js';
import type { ScriptGenerator } from './adapters/generators/types.js';
import { GENERATE_JOB_ATTEMPTS, GENERATE_JOB_BACKOFF_MS, generateScriptProcessor } from './jobs/generate-script.js';
import { scriptRoutes } from './routes/scripts.js';

export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

export interface MediaPluginOptions {
  runtime: Runtime;
  /** The practice's public name and contact details, used in every script. */
  practice?: PracticeContact | (() => PracticeContact);
  /** An OpenAI-compatible provider; without an API key, scripts come from the built-in template generator. */
  openai?: OpenAiOptions | null;
  /** Scripts generated at once by this instance. */
  concurrency?: number;
}

/** The media service as one Fastify plugin: AI video-script generation jobs. */
export async function mediaPlugin(app: App, opts: MediaPluginOptions) {
  const { runtime } = opts;
  await runMigrations(runtime.pool, SCHEMA, migrationsFolder);
  runtime.relay(SCHEMA);
  await app.register(authContext, { verifier: runtime.verifier });

  const given = opts.practice;
  // A getter follows changes made in /admin/settings (all-in-one); each script reads the current details.
  const facts = typeof given === 'function' ? () => buildPracticeFacts(given()) : () => buildPracticeFacts(given);
  const generator: ScriptGenerator = opts.openai?.apiKey ? new OpenAiScriptGenerator(opts.openai, runtime.logger) : templateGenerator;
  runtime.jobs.process('media.generate_script', generateScriptProcessor({ db: runtime.db, generator, facts, logger: runtime.logger }), {
    concurrency: opts.concurrency ?? 2,
  });
  scriptRoutes(app, { db: runtime.db, jobs: runtime.jobs, generator, logger: runtime.logger });

  // In-process jobs do not survive a restart (decisions.md 12): pick up what was left unfinished. The
  // job id is the script id, so a job BullMQ still holds is not added twice.
  for (const scriptId of await unfinishedScriptIds(runtime.db)) {
    await runtime.jobs
      .enqueue(
        'media.generate_script',
        { scriptId },
        { jobId: scriptId, attempts: GENERATE_JOB_ATTEMPTS, backoffMs: GENERATE_JOB_BACKOFF_MS },
      )
      .catch((err) => runtime.logger.warn({ err, scriptId }, 'media: could not re-queue an unfinished script'));
  }
  runtime.logger.info({ generator: generator.kind, model: generator.model }, 'media: script generator ready');
}

export { SCHEMA } from './db/schema.js';
export { DEFAULT_OPENAI_MODEL, type OpenAiOptions } from './adapters/generators/openai.js';
export type { PracticeContact } from './domain/facts.js';
