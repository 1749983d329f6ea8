import { VideoScriptSchema, videoTypeInfo, type VideoScript, type VideoType } from '@countinghouse/proto';
import { Value } from '@sinclair/typebox/value';

export type CheckResult = { ok: true; script: VideoScript } | { ok: false; kind: 'malformed' | 'length'; problem: string };

/**
 * Check a provider's answer: JSON, the scene shape, scenes in order without overlaps, and a total
 * length inside the type's range. The problem text goes back to the provider as feedback and, if the
 * second try fails too, to the person.
 */
export function checkScriptAnswer(content: string | null | undefined, type: VideoType): CheckResult {
  if (!content || !content.trim()) return { ok: false, kind: 'malformed', problem: 'the answer was empty' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripFences(content));
  } catch {
    return { ok: false, kind: 'malformed', problem: 'the answer was not valid JSON' };
  }
  // Whole seconds are asked for; a model that writes 7.5 gets rounded rather than refused.
  parsed = roundSeconds(parsed);
  if (!Value.Check(VideoScriptSchema, parsed)) {
    const e = [...Value.Errors(VideoScriptSchema, parsed)][0];
    const where = e?.path ? e.path.replace(/^\//, '').replace(/\//g, '.') : 'the answer';
    return { ok: false, kind: 'malformed', problem: `the JSON did not have the required shape (${where}: ${e?.message ?? 'invalid'})` };
  }
  // Clean returns unknown (TypeBox asks for a Check after it): dropping unknown properties keeps a valid script valid.
  const script = Value.Clean(VideoScriptSchema, Value.Clone(parsed));
  if (!Value.Check(VideoScriptSchema, script)) return { ok: false, kind: 'malformed', problem: 'the JSON did not have the required shape' };
  let previousEnd = 0;
  for (const [i, scene] of script.scenes.entries()) {
    if (scene.end_second <= scene.start_second) {
      return {
        ok: false,
        kind: 'malformed',
        problem: `scene ${i + 1} ends (${scene.end_second}s) before it starts (${scene.start_second}s)`,
      };
    }
    if (scene.start_second < previousEnd) {
      return { ok: false, kind: 'malformed', problem: `scene ${i + 1} starts at ${scene.start_second}s, before scene ${i} ends` };
    }
    previousEnd = scene.end_second;
  }
  // The scenes are the truth: the spoken video lasts until the last scene ends.
  const length = previousEnd;
  const info = videoTypeInfo(type);
  if (Math.abs(script.total_seconds - length) > 2) {
    return {
      ok: false,
      kind: 'malformed',
      problem: `total_seconds says ${script.total_seconds} but the last scene ends at ${length} seconds`,
    };
  }
  if (length < info.minSeconds || length > info.maxSeconds) {
    return {
      ok: false,
      kind: 'length',
      problem: `the script lasts ${length} seconds, outside the ${info.minSeconds}-${info.maxSeconds} seconds a ${info.label} must fit`,
    };
  }
  return { ok: true, script: { ...script, total_seconds: length } };
}

function stripFences(s: string): string {
  const t = s.trim();
  const m = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(t);
  return m ? m[1]! : t;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function roundSeconds(v: unknown): unknown {
  if (!isRecord(v)) return v;
  const o = v;
  const round = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? Math.round(x) : x);
  const out: Record<string, unknown> = { ...o };
  if ('total_seconds' in o) out.total_seconds = round(o.total_seconds);
  if (Array.isArray(o.scenes)) {
    const scenes: unknown[] = o.scenes;
    out.scenes = scenes.map((s) => (isRecord(s) ? { ...s, start_second: round(s.start_second), end_second: round(s.end_second) } : s));
  }
  return out;
}
