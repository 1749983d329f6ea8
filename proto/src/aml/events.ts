import { Type } from '@sinclair/typebox';

// Patterns, not formats: consumers check events with TypeBox's Value, which knows no formats.
const IsoDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const Nullable = <T extends import('@sinclair/typebox').TSchema>(s: T) => Type.Union([s, Type.Null()]);

/** An MLRO approved a client's due diligence file (a version); the client's file is in force until next_review_on. */
export const AmlFileApprovedSchema = Type.Object({
  clientId: Type.String(),
  clientName: Type.String(),
  version: Type.Integer(),
  riskLevel: Type.String(),
  dueDiligence: Type.String(),
  nextReviewOn: IsoDate,
  approvedByName: Type.String(),
});

/**
 * A client's due diligence review falls due: crm opens one task for the assigned accountant per
 * idempotencyKey (`aml-review:<client>:<version>`), notifications raise one notification.
 */
export const AmlReviewDueSchema = Type.Object({
  idempotencyKey: Type.String({ minLength: 1, maxLength: 200 }),
  clientId: Type.String(),
  clientName: Type.String(),
  version: Type.Integer(),
  nextReviewOn: IsoDate,
  assigneeId: Nullable(Type.String()),
  title: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ maxLength: 5000 }),
});

/** A client's AML file was deleted after its retention period: documents deletes the evidence files. */
export const AmlFileDeletedSchema = Type.Object({
  clientId: Type.String(),
  documentIds: Type.Array(Type.String()),
});

/** The MLRO returned the version awaiting approval to draft, with a reason (issue 26). */
export const AmlFileReturnedSchema = Type.Object({
  clientId: Type.String(),
  version: Type.Integer(),
  reason: Type.String(),
  returnedByName: Type.String(),
});

/** A version was sent for the MLRO's approval (the client record's badge: awaiting approval). */
export const AmlFileSubmittedSchema = Type.Object({
  clientId: Type.String(),
  version: Type.Integer(),
  submittedByName: Type.String(),
});

export const AML_EVENTS = {
  'aml.file_approved': AmlFileApprovedSchema,
  'aml.file_returned': AmlFileReturnedSchema,
  'aml.file_submitted': AmlFileSubmittedSchema,
  'aml.review_due': AmlReviewDueSchema,
  'aml.file_deleted': AmlFileDeletedSchema,
} as const;
