import type { ScriptGenerator as GeneratorKind, VideoScript, VideoType } from '@countinghouse/proto';
import type { PracticeFacts } from '../../domain/facts.js';

export interface GenerateInput {
  type: VideoType;
  /** The custom description (or extra notes), already trimmed; null when none. */
  prompt: string | null;
  facts: PracticeFacts;
}

export interface GenerateResult {
  script: VideoScript;
  model: string | null;
}

/** Writes a script. `progress` takes 0-100 and is reported to the job and the record. */
export interface ScriptGenerator {
  readonly kind: GeneratorKind;
  readonly model: string | null;
  generate(input: GenerateInput, progress: (pct: number) => Promise<void>): Promise<GenerateResult>;
}

/**
 * A failure that retrying the job cannot fix (the provider refused, or its script could not be used
 * twice). The message is shown to the person as the server's error text, so it says what happened.
 */
export class GenerationError extends Error {
  override name = 'GenerationError';
}
