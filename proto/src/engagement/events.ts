import { Type } from '@sinclair/typebox';

const Nullable = <T extends import('@sinclair/typebox').TSchema>(s: T) => Type.Union([s, Type.Null()]);
const Reason = Type.Union(['onboarding', 'package_changed', 'template_changed', 'sent_by_practice'].map((r) => Type.Literal(r)));

/** A letter version was sent for signature (a new client, a package change, new terms). */
export const LetterSentSchema = Type.Object({
  letterId: Type.String(),
  clientId: Type.String(),
  clientName: Type.String(),
  version: Type.Integer({ minimum: 1 }),
  packageName: Type.String(),
  reason: Reason,
  textSha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
});

/**
 * A letter was signed. The PDF travels with the event (a few kilobytes) so documents stores it as
 * the client's document under documentId, once, whatever the redelivery.
 */
export const LetterSignedSchema = Type.Object({
  letterId: Type.String(),
  clientId: Type.String(),
  clientName: Type.String(),
  version: Type.Integer({ minimum: 1 }),
  packageName: Type.String(),
  signerName: Type.String(),
  signedAt: Type.String({ minLength: 20 }),
  textSha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  documentId: Type.String(),
  filename: Type.String({ minLength: 1, maxLength: 200 }),
  pdfSha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  pdfBase64: Type.String({ minLength: 1 }),
  uploadedBy: Nullable(Type.String()),
});

/**
 * The client accepted the terms of a package by signing its letter (issue 33): billing lets that
 * person pay for that package. Published at every signing, before or after the first payment.
 */
export const TermsAcceptedSchema = Type.Object({
  letterId: Type.String(),
  clientId: Type.String(),
  userId: Type.String(),
  packageName: Type.String(),
  version: Type.Integer({ minimum: 1 }),
  signedAt: Type.String({ minLength: 20 }),
});

/** Chase an unsigned letter by e-mail (identity's mailer: SMTP when configured, else the outgoing-mail log). */
export const LetterReminderSchema = Type.Object({
  letterId: Type.String(),
  clientId: Type.String(),
  day: Type.Integer({ minimum: 1 }),
  to: Type.String({ minLength: 3 }),
  subject: Type.String({ minLength: 1 }),
  text: Type.String({ minLength: 1 }),
});

export const ENGAGEMENT_EVENTS = {
  'engagement.letter_sent': LetterSentSchema,
  'engagement.letter_signed': LetterSignedSchema,
  'engagement.letter_reminder': LetterReminderSchema,
  'engagement.terms_accepted': TermsAcceptedSchema,
} as const;
