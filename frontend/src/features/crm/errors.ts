import { MESSAGES } from '@countinghouse/proto';
import { errorBody } from '../../app/api';
import { serverText, type ToastText } from '../../shared/toast';

/** What to say when a write fails: the server's own message (validation, 409s), else a generic text. */
export function writeErrorText(error: unknown): ToastText {
  const message = errorBody(error)?.message;
  return message ? serverText(message) : MESSAGES.unexpectedError;
}
