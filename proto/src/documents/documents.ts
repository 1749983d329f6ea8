import { Type, type Static } from '@sinclair/typebox';
import { PageNumber } from '../text.js';
import { DOCUMENT_STATUSES, DOCUMENT_TYPE_VALUES } from '../constants.js';

// Contracts of the documents service (routes under /api/documents). Browser-safe.

export const DOCUMENTS_ROUTES = {
  list: '/api/documents',
  upload: '/api/documents',
  summary: '/api/documents/summary',
  clients: '/api/documents/clients',
  one: (id: string) => `/api/documents/${encodeURIComponent(id)}`,
  viewLink: (id: string) => `/api/documents/${encodeURIComponent(id)}/view-link`,
  download: (id: string) => `/api/documents/${encodeURIComponent(id)}/download`,
  accessLog: (id: string) => `/api/documents/${encodeURIComponent(id)}/access-log`,
  /** Public (signed) file address: the gateway lets it through without a token. */
  filesPrefix: '/api/documents/files/',
} as const;

/** The accepted kinds of file (spec section 5), with what a browser may declare for them. */
export const ACCEPTED_FILE_KINDS = [
  { kind: 'pdf', extensions: ['pdf'], mimeTypes: ['application/pdf', 'application/x-pdf'] },
  { kind: 'jpeg', extensions: ['jpg', 'jpeg'], mimeTypes: ['image/jpeg', 'image/pjpeg'] },
  { kind: 'png', extensions: ['png'], mimeTypes: ['image/png'] },
  { kind: 'gif', extensions: ['gif'], mimeTypes: ['image/gif'] },
  { kind: 'xlsx', extensions: ['xlsx'], mimeTypes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'] },
  {
    kind: 'xls',
    extensions: ['xls'],
    mimeTypes: ['application/vnd.ms-excel', 'application/msexcel', 'application/x-msexcel', 'application/x-excel'],
  },
  // Windows browsers often declare CSV as the Excel type when Excel is installed.
  { kind: 'csv', extensions: ['csv'], mimeTypes: ['text/csv', 'application/csv', 'text/x-csv', 'text/plain', 'application/vnd.ms-excel'] },
] as const;
export type FileKind = (typeof ACCEPTED_FILE_KINDS)[number]['kind'];

/** The `accept` attribute of the file picker. */
export const UPLOAD_ACCEPT = ACCEPTED_FILE_KINDS.flatMap((k) => k.extensions.map((e) => `.${e}`)).join(',');

/** Declared types that make no claim (curl, some browsers for unknown files): the content decides. */
export const NEUTRAL_MIME_TYPES = ['', 'application/octet-stream'] as const;

/** A literal list (a kind's extensions, its types) holds this string. */
const listed = (list: readonly string[], s: string): boolean => list.includes(s);

/** The kind a file name and declared type point to, or null when either is not accepted (a cheap pre-check). */
export function fileKindFor(filename: string, mimeType: string): FileKind | null {
  const dot = filename.lastIndexOf('.');
  if (dot < 0) return null;
  const ext = filename.slice(dot + 1).toLowerCase();
  const kind = ACCEPTED_FILE_KINDS.find((k) => listed(k.extensions, ext));
  if (!kind) return null;
  const mime = mimeType.toLowerCase().split(';')[0]!.trim();
  if (listed(NEUTRAL_MIME_TYPES, mime)) return kind.kind;
  return listed(kind.mimeTypes, mime) ? kind.kind : null;
}

export const DocumentTypeSchema = Type.Union(DOCUMENT_TYPE_VALUES.map((t) => Type.Literal(t)));
export const DocumentStatusSchema = Type.Union(DOCUMENT_STATUSES.map((s) => Type.Literal(s)));

export const ClientDocumentSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  client_id: Type.String(),
  filename: Type.String(),
  document_type: Type.String(),
  file_size: Type.Integer(),
  content_type: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  uploaded_by: Type.String(),
  status: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  /** Joined from the client directory. */
  company_name: Type.Union([Type.String(), Type.Null()]),
  contact_email: Type.Union([Type.String(), Type.Null()]),
});
export type ClientDocument = Static<typeof ClientDocumentSchema>;

export const DocumentListQuerySchema = Type.Object({
  page: PageNumber(),
  page_size: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  /** Case-insensitive, across file name, description, company name and contact e-mail. */
  search: Type.Optional(Type.String({ maxLength: 200 })),
  type: Type.Optional(Type.Union([Type.Literal('all'), DocumentTypeSchema])),
  status: Type.Optional(Type.Union([Type.Literal('all'), DocumentStatusSchema])),
  client_id: Type.Optional(Type.String({ maxLength: 100 })),
  /** Uploaded on or after / on or before this London day (YYYY-MM-DD): the uploads report's range. */
  created_from: Type.Optional(Type.String({ format: 'date' })),
  created_to: Type.Optional(Type.String({ format: 'date' })),
});
export type DocumentListQuery = Static<typeof DocumentListQuerySchema>;

export const DocumentListSchema = Type.Object({
  documents: Type.Array(ClientDocumentSchema),
  /** Exact up to 10,000; beyond that it is 10,000 and `total_exact` is false ('10,000+'). */
  total: Type.Integer(),
  total_exact: Type.Boolean(),
  page: Type.Integer(),
  page_size: Type.Integer(),
});
export type DocumentList = Static<typeof DocumentListSchema>;

export const DocumentSummaryQuerySchema = Type.Object({
  client_id: Type.Optional(Type.String({ maxLength: 100 })),
});
export type DocumentSummaryQuery = Static<typeof DocumentSummaryQuerySchema>;

/** The summary cards: Total Documents, Active, Pending, Clients (distinct clients with documents). */
export const DocumentSummarySchema = Type.Object({
  total: Type.Integer(),
  active: Type.Integer(),
  pending: Type.Integer(),
  clients: Type.Integer(),
});
export type DocumentSummary = Static<typeof DocumentSummarySchema>;

export const UploadReplySchema = Type.Object({
  success: Type.Boolean(),
  /** '{n} file(s) uploaded successfully' */
  message: Type.String(),
  documents: Type.Array(ClientDocumentSchema),
});
export type UploadReply = Static<typeof UploadReplySchema>;

export const ViewLinkSchema = Type.Object({
  /** Relative URL, valid for LIMITS.signedUrlSeconds, bound to this document. */
  url: Type.String(),
  expires_at: Type.String({ format: 'date-time' }),
});
export type ViewLink = Static<typeof ViewLinkSchema>;

export const SignedFileQuerySchema = Type.Object({
  exp: Type.Integer({ minimum: 0 }),
  sig: Type.String({ minLength: 1, maxLength: 200 }),
});
export type SignedFileQuery = Static<typeof SignedFileQuerySchema>;

export const ACCESS_ACTIONS = ['view', 'download', 'upload'] as const;
export type AccessAction = (typeof ACCESS_ACTIONS)[number];

export const AccessLogEntrySchema = Type.Object({
  id: Type.String(),
  document_id: Type.String({ format: 'uuid' }),
  action: Type.Union(ACCESS_ACTIONS.map((a) => Type.Literal(a))),
  principal_kind: Type.String(),
  principal_id: Type.String(),
  principal_name: Type.String(),
  ip: Type.Union([Type.String(), Type.Null()]),
  user_agent: Type.Union([Type.String(), Type.Null()]),
  at: Type.String({ format: 'date-time' }),
});
export type AccessLogEntry = Static<typeof AccessLogEntrySchema>;
export const AccessLogSchema = Type.Object({ entries: Type.Array(AccessLogEntrySchema) });
export type AccessLog = Static<typeof AccessLogSchema>;

/** Clients the caller may upload for (the uploader's client pick). */
export const DirectoryQuerySchema = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 200 })),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
});
export const DirectoryClientSchema = Type.Object({
  client_id: Type.String(),
  company_name: Type.String(),
  contact_email: Type.String(),
});
export type DirectoryClient = Static<typeof DirectoryClientSchema>;
export const DirectoryListSchema = Type.Object({ clients: Type.Array(DirectoryClientSchema) });
export type DirectoryList = Static<typeof DirectoryListSchema>;

/** Upload form fields; they must come before the files in the multipart body. */
export const UPLOAD_FIELDS = { clientId: 'client_id', documentType: 'document_type', description: 'description', file: 'files' } as const;
export const MAX_FILES_PER_UPLOAD = 20;
export const MAX_DESCRIPTION_LENGTH = 1000;

/** Status icon colours (spec): completed and active green, pending blue, anything else orange. */
export function documentStatusColour(status: string): 'green' | 'blue' | 'orange' {
  if (status === 'completed' || status === 'active') return 'green';
  if (status === 'pending') return 'blue';
  return 'orange';
}
