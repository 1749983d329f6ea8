import { Type } from '@sinclair/typebox';
import { IsoDateSchema } from './requests.js';

const Nullable = <T extends import('@sinclair/typebox').TSchema>(s: T) => Type.Union([s, Type.Null()]);

/** A file to file as the client's document: the documents service stores it under documentId, once. */
export const FiledDocumentSchema = Type.Object({
  documentId: Type.String(),
  filename: Type.String({ minLength: 1, maxLength: 200 }),
  contentType: Type.String(),
  documentType: Type.String(),
  description: Type.String(),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  base64: Type.String({ minLength: 1 }),
});

const RequestRef = {
  requestId: Type.String(),
  clientId: Type.String(),
  title: Type.String(),
};

export const RequestOpenedSchema = Type.Object({
  ...RequestRef,
  dueOn: IsoDateSchema,
  deadlineId: Nullable(Type.String()),
  assigneeId: Nullable(Type.String()),
  items: Type.Integer({ minimum: 1 }),
});
export const ItemSubmittedSchema = Type.Object({
  ...RequestRef,
  itemId: Type.String(),
  label: Type.String(),
  uploadedBy: Type.String(),
  documents: Type.Array(FiledDocumentSchema),
});
export const ItemReviewedSchema = Type.Object({
  ...RequestRef,
  itemId: Type.String(),
  label: Type.String(),
  reason: Nullable(Type.String()),
});
/** A chase e-mail (identity's mailer: SMTP when configured, else the outgoing-mail log). */
export const ReminderSentSchema = Type.Object({
  ...RequestRef,
  day: IsoDateSchema,
  to: Type.String({ minLength: 3 }),
  subject: Type.String({ minLength: 1 }),
  text: Type.String({ minLength: 1 }),
});
export const RequestCompletedSchema = Type.Object({ ...RequestRef });
/** A secure message: the e-mail notice carries no content (to, subject and text say only that one arrived). */
export const MessagePostedSchema = Type.Object({
  messageId: Type.String(),
  clientId: Type.String(),
  side: Type.Union([Type.Literal('client'), Type.Literal('practice')]),
  authorId: Type.String(),
  documents: Type.Array(FiledDocumentSchema),
  notice: Nullable(Type.Object({ to: Type.String({ minLength: 3 }), subject: Type.String(), text: Type.String() })),
});

export const REQUESTS_EVENTS = {
  'requests.request_opened': RequestOpenedSchema,
  'requests.item_submitted': ItemSubmittedSchema,
  'requests.item_accepted': ItemReviewedSchema,
  'requests.item_rejected': ItemReviewedSchema,
  'requests.reminder_sent': ReminderSentSchema,
  'requests.request_completed': RequestCompletedSchema,
  'requests.message_posted': MessagePostedSchema,
} as const;
