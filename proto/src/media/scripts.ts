import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PageNumber, SafeText } from '../text.js';
import { VIDEO_TYPES, type Role } from '../constants.js';
import { rolesFor } from '../permissions.js';

/**
 * AI video scripts (spec: 'AI Video Generator tab', `generate-video`). Generation runs as a job: the
 * POST answers 202 with a queued record; the UI polls GET /scripts/:id for status, progress and the
 * result.
 */

const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const DateTime = Type.String({ format: 'date-time' });
const Uuid = Type.String({ format: 'uuid' });

export type VideoType = (typeof VIDEO_TYPES)[number]['value'];
export const VideoTypeSchema = Type.Union([Type.Literal('company_overview'), Type.Literal('website_demo'), Type.Literal('custom')]);

/** Longest description a person may type for a custom video (and the most we send to a provider). */
export const MAX_CUSTOM_PROMPT_CHARS = 2000;

/** The length range a script of this type must fit, in seconds (spec section 9; custom is ours). */
export function videoTypeInfo(type: VideoType) {
  return VIDEO_TYPES.find((t) => t.value === type)!;
}

/**
 * POST /api/media/scripts. `type` null (or absent) means a custom video, as in the spec's
 * `generate-video`; a custom video needs a non-blank `customPrompt`.
 */
export const GenerateScriptBodySchema = Type.Object(
  {
    type: Type.Optional(Nullable(VideoTypeSchema)),
    customPrompt: Type.Optional(Nullable(SafeText({ maxLength: MAX_CUSTOM_PROMPT_CHARS }))),
  },
  { additionalProperties: false },
);
export type GenerateScriptBody = Static<typeof GenerateScriptBodySchema>;

export const SCRIPT_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type ScriptStatus = (typeof SCRIPT_STATUSES)[number];
export const ScriptStatusSchema = Type.Union(SCRIPT_STATUSES.map((s) => Type.Literal(s)));

export const SCRIPT_GENERATORS = ['openai', 'template'] as const;
export type ScriptGenerator = (typeof SCRIPT_GENERATORS)[number];
export const ScriptGeneratorSchema = Type.Union([Type.Literal('openai'), Type.Literal('template')]);

export const SceneSchema = Type.Object({
  start_second: Type.Integer({ minimum: 0 }),
  end_second: Type.Integer({ minimum: 1 }),
  narration: Type.String({ minLength: 1, maxLength: 2000 }),
  on_screen_text: Type.String({ maxLength: 300 }),
  visual: Type.String({ minLength: 1, maxLength: 1000 }),
});
export type Scene = Static<typeof SceneSchema>;

/** The structured script: what the provider must answer (as JSON) and what we store. */
export const VideoScriptSchema = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200 }),
  total_seconds: Type.Integer({ minimum: 1 }),
  scenes: Type.Array(SceneSchema, { minItems: 1, maxItems: 40 }),
});
export type VideoScript = Static<typeof VideoScriptSchema>;

export const RequestedBySchema = Type.Object({
  kind: Type.Union([Type.Literal('admin'), Type.Literal('user')]),
  id: Type.String(),
  name: Type.String(),
});
export type RequestedBy = Static<typeof RequestedBySchema>;

/** One generated script: the job's status while it runs, the result when it is done. */
export const ScriptRecordSchema = Type.Object({
  id: Uuid,
  type: VideoTypeSchema,
  /** The typed description (custom videos), else null. */
  prompt: Nullable(Type.String()),
  status: ScriptStatusSchema,
  /** 0-100 */
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  script: Nullable(VideoScriptSchema),
  /** The script as plain text: what Download saves and Share sends. */
  text: Nullable(Type.String()),
  generator: Nullable(ScriptGeneratorSchema),
  /** The provider's model for generator 'openai'. */
  model: Nullable(Type.String()),
  /** Why generation failed, in words a person can act on. */
  error: Nullable(Type.String()),
  attempts: Type.Integer({ minimum: 0 }),
  started_at: Nullable(DateTime),
  completed_at: Nullable(DateTime),
  /** From start to completion (or failure), in milliseconds. */
  duration_ms: Nullable(Type.Integer({ minimum: 0 })),
  requested_by: RequestedBySchema,
  created_at: DateTime,
});
export type ScriptRecord = Static<typeof ScriptRecordSchema>;

export const ScriptParamsSchema = Type.Object({ id: Uuid });

export const ScriptListQuerySchema = Type.Object(
  {
    page: PageNumber(),
    page_size: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  },
  { additionalProperties: false },
);
export type ScriptListQuery = Static<typeof ScriptListQuerySchema>;

/** A line of the earlier-scripts list (the full record is one GET away). */
export const ScriptSummarySchema = Type.Object({
  id: Uuid,
  type: VideoTypeSchema,
  prompt: Nullable(Type.String()),
  status: ScriptStatusSchema,
  title: Nullable(Type.String()),
  total_seconds: Nullable(Type.Integer()),
  generator: Nullable(ScriptGeneratorSchema),
  error: Nullable(Type.String()),
  requested_by: RequestedBySchema,
  created_at: DateTime,
});
export type ScriptSummary = Static<typeof ScriptSummarySchema>;

/** Newest first. */
export const ScriptListSchema = Type.Object({
  scripts: Type.Array(ScriptSummarySchema),
  total: Type.Integer({ minimum: 0 }),
  page: Type.Integer({ minimum: 1 }),
  page_size: Type.Integer({ minimum: 1 }),
});
export type ScriptList = Static<typeof ScriptListSchema>;

/** Which generator new scripts will use, so the tab can say so before anyone presses the button. */
export const GeneratorInfoSchema = Type.Object({
  generator: ScriptGeneratorSchema,
  model: Nullable(Type.String()),
});
export type GeneratorInfo = Static<typeof GeneratorInfoSchema>;

/** HTTP routes of media, under the gateway. Only admin and manager (and the admin panel session). */
export const MEDIA_ROUTES = {
  scripts: '/api/media/scripts',
  script: (id: string) => `/api/media/scripts/${id}`,
  generator: '/api/media/generator',
} as const;

export const MEDIA_ROLES: readonly Role[] = rolesFor('media.scripts');

/** `0:05` style timings for scenes. */
export function formatSeconds(total: number): string {
  const m = Math.floor(total / 60);
  const s = Math.floor(total % 60);
  return `${m}:${String(s).padStart(2, '0')}`;
}

/**
 * The plain-text rendering of a script, built the same way on the server (stored with the record)
 * and anywhere else that needs it.
 */
export function renderScriptText(script: VideoScript, o: { type: VideoType; generator: ScriptGenerator; practiceName?: string }): string {
  const info = videoTypeInfo(o.type);
  const lines: string[] = [
    script.title,
    '='.repeat(Math.min(script.title.length, 80)),
    '',
    `Video type: ${info.label} (${info.length})`,
    `Total length: ${script.total_seconds} seconds (${formatSeconds(script.total_seconds)})`,
    `Scenes: ${script.scenes.length}`,
    o.generator === 'template'
      ? 'Written by the built-in template generator (no AI provider is configured).'
      : 'Written with an AI model; check facts and prices before you record.',
    '',
  ];
  script.scenes.forEach((scene, i) => {
    lines.push(`Scene ${i + 1} [${formatSeconds(scene.start_second)} - ${formatSeconds(scene.end_second)}]`);
    lines.push(`Narration: ${scene.narration}`);
    if (scene.on_screen_text) lines.push(`On-screen text: ${scene.on_screen_text}`);
    lines.push(`Visual: ${scene.visual}`);
    lines.push('');
  });
  return lines.join('\n');
}
