import { cleanDisplayName, fileKindFor, LIMITS, MESSAGES, type FileKind } from '@countinghouse/proto';

/** Canonical extension of each kind: the stored name's extension comes from here, never from the upload. */
export const STORED_EXTENSION: Record<FileKind, string> = {
  pdf: 'pdf',
  jpeg: 'jpg',
  png: 'png',
  gif: 'gif',
  xlsx: 'xlsx',
  xls: 'xls',
  csv: 'csv',
};

/** The content type a kind is served with. */
export const CONTENT_TYPE: Record<FileKind, string> = {
  pdf: 'application/pdf',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xls: 'application/vnd.ms-excel',
  csv: 'text/csv; charset=utf-8',
};

const MAGIC: Record<Exclude<FileKind, 'csv' | 'gif'>, number[]> = {
  pdf: [0x25, 0x50, 0x44, 0x46], // %PDF
  jpeg: [0xff, 0xd8, 0xff],
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  xlsx: [0x50, 0x4b, 0x03, 0x04], // ZIP local file header
  xls: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], // OLE compound file
};
const GIF87 = [0x47, 0x49, 0x46, 0x38, 0x37, 0x61];
const GIF89 = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61];
/** Bytes the header check needs. */
const HEAD = 8;

export type CheckFailure = { code: 'UNSUPPORTED_FILE_TYPE' | 'FILE_TOO_LARGE'; title: string; message: string };

export function invalidType(filename: string): CheckFailure {
  return { code: 'UNSUPPORTED_FILE_TYPE', title: MESSAGES.invalidFileTypeTitle, message: MESSAGES.invalidFileType(filename) };
}
export function tooLarge(filename: string): CheckFailure {
  return { code: 'FILE_TOO_LARGE', title: MESSAGES.fileTooLargeTitle, message: MESSAGES.fileTooLarge(filename) };
}

function startsWith(head: Buffer, magic: number[]): boolean {
  if (head.length < magic.length) return false;
  return magic.every((b, i) => head[i] === b);
}

/** Text a spreadsheet would export: no NUL or other control bytes but tab, CR, LF, FF, VT; any UTF-8 or Latin-1 byte above. */
function isTextChunk(chunk: Buffer): boolean {
  for (let i = 0; i < chunk.length; i++) {
    const b = chunk[i]!;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x0b) return false;
    if (b === 0x7f) return false;
  }
  return true;
}

/**
 * Checks one file while it streams: its name and declared type first, then its first bytes (magic
 * numbers), every byte of a CSV, and the size limit. Holds at most a few header bytes.
 */
export class FileInspector {
  readonly kind: FileKind | null;
  private head = Buffer.alloc(0);
  private headChecked = false;
  private bytes = 0;
  failure: CheckFailure | null = null;

  constructor(
    private readonly filename: string,
    mimeType: string,
    private readonly maxBytes: number = LIMITS.maxUploadBytes,
  ) {
    this.kind = fileKindFor(filename, mimeType);
    if (!this.kind) this.failure = invalidType(filename);
  }

  get size() {
    return this.bytes;
  }

  /** Feed the next chunk; returns false once the file is refused (stop writing, keep draining). */
  push(chunk: Buffer): boolean {
    if (this.failure) return false;
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      this.failure = tooLarge(this.filename);
      return false;
    }
    if (!this.headChecked) {
      this.head = Buffer.concat([this.head, chunk.subarray(0, HEAD - this.head.length)]);
      if (this.head.length >= HEAD) this.checkHead();
    }
    if (!this.failure && this.kind === 'csv' && !isTextChunk(chunk)) this.failure = invalidType(this.filename);
    return this.failure === null;
  }

  /** Call at the end of the stream; `truncated` is the multipart parser's own size-limit flag. */
  finish(truncated: boolean): CheckFailure | null {
    if (this.failure) return this.failure;
    if (truncated) return (this.failure = tooLarge(this.filename));
    if (this.bytes === 0) return (this.failure = invalidType(this.filename));
    if (!this.headChecked) this.checkHead();
    return this.failure;
  }

  private checkHead() {
    this.headChecked = true;
    const h = this.head;
    let ok: boolean;
    switch (this.kind) {
      case 'gif':
        ok = startsWith(h, GIF87) || startsWith(h, GIF89);
        break;
      case 'csv':
        // A CSV has no magic number; its bytes are checked as text. A UTF-8 BOM is fine.
        ok = true;
        break;
      case null:
        ok = false;
        break;
      default:
        ok = startsWith(h, MAGIC[this.kind]);
    }
    if (!ok) this.failure = invalidType(this.filename);
  }
}

/** A display name from an upload: no path, no control or bidirectional-override characters, at most 255 characters. */
export function cleanFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = cleanDisplayName(base).trim();
  return cleaned.slice(-255) || 'file';
}
