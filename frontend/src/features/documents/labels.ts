import { DOCUMENT_TYPES, MESSAGES, type DocumentStatus } from '@countinghouse/proto';

export const typeLabel = (value: string): string => DOCUMENT_TYPES.find((t) => t.value === value)?.label ?? value;

export const STATUS_LABELS: Record<DocumentStatus, string> = { active: 'Active', completed: 'Completed', pending: 'Pending' };

/** The upload dialog's statement about who can open the files (staff portal and admin). */
export const ACCESS_NOTE = 'Only the client and their assigned accountant can access these files.';

/** The title of a server refusal, by its code (the server sends the detail). */
export function uploadErrorTitle(code: string, message: string): string {
  if (code === 'UNSUPPORTED_FILE_TYPE') return MESSAGES.invalidFileTypeTitle;
  if (code === 'FILE_TOO_LARGE') return MESSAGES.fileTooLargeTitle;
  if (message === MESSAGES.missingInformation) return MESSAGES.missingInformationTitle;
  return MESSAGES.uploadFailedTitle;
}

/** 1.2 MB, 340 KB, 12 bytes */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
