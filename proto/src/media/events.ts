import { Type } from '@sinclair/typebox';

const VideoType = Type.Union([Type.Literal('company_overview'), Type.Literal('website_demo'), Type.Literal('custom')]);

/** A script finished: what it is and who asked (the script itself stays in media). */
export const ScriptGeneratedSchema = Type.Object({
  scriptId: Type.String(),
  type: VideoType,
  title: Type.String(),
  totalSeconds: Type.Integer(),
  generator: Type.Union([Type.Literal('openai'), Type.Literal('template')]),
  model: Type.Union([Type.String(), Type.Null()]),
  requestedBy: Type.Object({ kind: Type.String(), id: Type.String() }),
});

/** A script could not be generated; `error` is the text the person was shown. */
export const ScriptFailedSchema = Type.Object({
  scriptId: Type.String(),
  type: VideoType,
  error: Type.String(),
  requestedBy: Type.Object({ kind: Type.String(), id: Type.String() }),
});

export const MEDIA_EVENTS = {
  'media.script_generated': ScriptGeneratedSchema,
  'media.script_failed': ScriptFailedSchema,
} as const;

// proto's index exports this file; the media HTTP contracts travel with it.
export * from './scripts.js';
export * from './jobs.js';
