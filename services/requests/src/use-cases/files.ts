import { AppError } from '@countinghouse/kit';
import { cleanDisplayName, fileKindFor, MAX_REQUEST_FILE_BYTES, MESSAGES, type AttachedFile } from '@countinghouse/proto';
import { createHash, randomUUID } from 'node:crypto';

const MAGIC: Record<string, number[]> = {
  pdf: [0x25, 0x50, 0x44, 0x46],
  jpeg: [0xff, 0xd8, 0xff],
  png: [0x89, 0x50, 0x4e, 0x47],
  xlsx: [0x50, 0x4b, 0x03, 0x04],
};

/**
 * A file to be filed as the client's document: checked like an upload to documents (its name and type
 * among the accepted kinds, its first bytes, the size), then given the id documents files it under.
 * The bytes travel once, in the event documents consumes; this service keeps only the id.
 */
export function prepareFile(f: AttachedFile, documentType: string, description: string) {
  const kind = fileKindFor(f.filename, f.content_type);
  if (!kind) throw new AppError('UNSUPPORTED_FILE_TYPE', MESSAGES.invalidFileType(f.filename));
  const bytes = Buffer.from(f.base64, 'base64');
  if (bytes.length === 0) throw new AppError('VALIDATION_FAILED', `${f.filename} is empty.`);
  if (bytes.length > MAX_REQUEST_FILE_BYTES) throw new AppError('FILE_TOO_LARGE', `${f.filename} is larger than 5MB`);
  const magic = MAGIC[kind];
  if (magic && !magic.every((b, i) => bytes[i] === b)) throw new AppError('UNSUPPORTED_FILE_TYPE', MESSAGES.invalidFileType(f.filename));
  return {
    documentId: randomUUID(),
    filename: cleanDisplayName(f.filename).slice(0, 200) || 'file',
    contentType: f.content_type,
    documentType,
    description,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    base64: bytes.toString('base64'),
  };
}
