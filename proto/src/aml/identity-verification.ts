import { Type, type Static } from '@sinclair/typebox';

// The practice as an Authorised Corporate Service Provider (ACSP) verifying a client's directors and
// PSCs for Companies House (ECCTA 2023): the record of each verification, kept with the AML file whose
// identity evidence it rests on. Browser-safe.

export const ACSP_ROUTES = {
  /** GET (identity_verification.view) / POST (identity_verification.record): a client's ACSP verification records. */
  records: (clientId: string) => `/api/aml/clients/${encodeURIComponent(clientId)}/identity-verifications`,
  /** GET (identity_verification.view) / PUT (identity_verification.settings): the practice's ACSP number and AML supervisor. */
  settings: '/api/aml/acsp-settings',
  /** DELETE (identity_verification.delete): refused until seven years after the verification. */
  record: (clientId: string, id: string) => `/api/aml/clients/${encodeURIComponent(clientId)}/identity-verifications/${id}`,
} as const;

/** A Companies House personal code: 11 letters and digits (spaces and hyphens as people type them are ignored). */
export const PERSONAL_CODE_LENGTH = 11;
export function normalisePersonalCode(raw: string): string {
  return raw.replace(/[\s-]/g, '').toUpperCase();
}
export function isPersonalCode(raw: string): boolean {
  return /^[A-Z0-9]{11}$/.test(normalisePersonalCode(raw));
}

/** How long a verification record is kept: seven years after the verification (issue #30; ACSP conditions). */
export const ACSP_RETENTION_YEARS = 7;

const IsoDate = Type.String({ format: 'date' });

export const AcspVerificationInputSchema = Type.Object(
  {
    /** The person in the client's AML file (their Companies House key, officer:<role>:<name> or psc:<name>). */
    person_key: Type.String({ minLength: 1, maxLength: 400 }),
    personal_code: Type.String({ minLength: 1, maxLength: 40 }),
    verified_on: IsoDate,
    /** The identity documents of the person's AML record it rests on (by reference, never a second copy). */
    evidence_document_ids: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 10 }),
  },
  { additionalProperties: false },
);
export type AcspVerificationInput = Static<typeof AcspVerificationInputSchema>;

export const AcspVerificationSchema = Type.Object({
  id: Type.String(),
  client_id: Type.String(),
  person_key: Type.String(),
  person_name: Type.String(),
  personal_code: Type.String(),
  acsp_number: Type.String(),
  aml_supervisor: Type.String(),
  verified_on: IsoDate,
  evidence: Type.Array(Type.Object({ document_id: Type.String(), filename: Type.String() })),
  recorded_by_name: Type.String(),
  recorded_at: Type.String({ format: 'date-time' }),
  /** The last day the record must be kept. */
  keep_until: IsoDate,
});
export type AcspVerification = Static<typeof AcspVerificationSchema>;

export const AcspVerificationListSchema = Type.Object({ items: Type.Array(AcspVerificationSchema) });
export const AcspVerificationReplySchema = Type.Object({ record: AcspVerificationSchema, message: Type.String() });
export const AcspRecordParamsSchema = Type.Object({
  clientId: Type.String({ minLength: 1, maxLength: 64 }),
  id: Type.String({ format: 'uuid' }),
});

export const AcspSettingsInputSchema = Type.Object(
  {
    /** The number Companies House gave the practice when it registered as an ACSP. */
    acsp_number: Type.String({ minLength: 1, maxLength: 40 }),
    /** The practice's anti-money laundering supervisory body (e.g. ICAEW, ACCA, HMRC). */
    aml_supervisor: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);
export type AcspSettingsInput = Static<typeof AcspSettingsInputSchema>;
export const AcspSettingsSchema = Type.Object({
  acsp_number: Type.Union([Type.String(), Type.Null()]),
  aml_supervisor: Type.Union([Type.String(), Type.Null()]),
  updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  updated_by_name: Type.Union([Type.String(), Type.Null()]),
});
export type AcspSettings = Static<typeof AcspSettingsSchema>;

export const ACSP_MESSAGES = {
  settingsSaved: 'ACSP settings saved',
  settingsMissing: "Enter the practice's ACSP number and AML supervisor first",
  acspNumberFormat: 'Enter the ACSP number Companies House gave the practice: letters, numbers and hyphens',
  recorded: 'Identity verification recorded',
  deleted: 'Identity verification record deleted',
  personalCodeFormat: 'Enter the personal code Companies House gave: 11 letters and numbers',
  personNotInFile: "This person is not in the client's AML file",
  evidenceNotOfPerson: "Choose identity documents from this person's AML record",
  notFound: 'No such identity verification record',
  futureDate: 'The verification date cannot be in the future',
  retentionRunning: (keepUntil: string) => `This record must be kept until ${keepUntil} (seven years after the verification)`,
} as const;

// Patterns, not formats: consumers check events with TypeBox's Value, which knows no formats.
const EventDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** The practice verified a person as an ACSP (or, withdrawn: the record was deleted after its retention). */
export const AmlIdentityVerificationRecordedSchema = Type.Object({
  clientId: Type.String(),
  personKey: Type.String(),
  personName: Type.String(),
  verifiedOn: EventDate,
  byName: Type.String(),
  withdrawn: Type.Boolean(),
});
