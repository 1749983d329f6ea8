import { AppError, PermanentJobError } from '@countinghouse/kit';
import { ProviderError } from '../adapters/http.js';

/** A failure's description that is safe to log and store: our provider errors, or only the error's class. */
export function safeReason(err: unknown): string {
  if (err instanceof ProviderError || err instanceof PermanentJobError || err instanceof AppError) return err.message;
  return err instanceof Error ? `${err.name}` : 'unknown error';
}
