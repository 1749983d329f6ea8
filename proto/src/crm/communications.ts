import { Type, type Static } from '@sinclair/typebox';
import { SafeText } from '../text.js';
import { CrmDateTime, CrmUuid, Nullable, PageInfo, PageQuery, SearchText, literals } from './common.js';

export const COMMUNICATION_CHANNELS = ['email', 'phone', 'meeting', 'letter', 'portal'] as const;
export type CommunicationChannel = (typeof COMMUNICATION_CHANNELS)[number];
export const COMMUNICATION_DIRECTIONS = ['inbound', 'outbound'] as const;
export type CommunicationDirection = (typeof COMMUNICATION_DIRECTIONS)[number];

export const CommunicationChannelSchema = literals(COMMUNICATION_CHANNELS);
export const CommunicationDirectionSchema = literals(COMMUNICATION_DIRECTIONS);

export const CommunicationSchema = Type.Object({
  id: CrmUuid,
  client_id: CrmUuid,
  client_company_name: Type.String(),
  channel: CommunicationChannelSchema,
  direction: CommunicationDirectionSchema,
  subject: Type.String(),
  body: Nullable(Type.String()),
  /** When it happened (a call last Tuesday); created_at is when it was logged. */
  occurred_at: CrmDateTime,
  created_at: CrmDateTime,
  /** Who logged it: a user or admin id. */
  created_by: Nullable(Type.String()),
});
export type Communication = Static<typeof CommunicationSchema>;

export const CommunicationListQuerySchema = Type.Object(
  {
    /** Case-insensitive on the subject. */
    search: Type.Optional(SearchText),
    client_id: Type.Optional(CrmUuid),
    channel: Type.Optional(CommunicationChannelSchema),
    direction: Type.Optional(CommunicationDirectionSchema),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type CommunicationListQuery = Static<typeof CommunicationListQuerySchema>;

/** Newest first by occurred_at. */
export const CommunicationListSchema = Type.Object({ communications: Type.Array(CommunicationSchema), ...PageInfo });
export type CommunicationList = Static<typeof CommunicationListSchema>;

export const CommunicationCreateBodySchema = Type.Object(
  {
    client_id: CrmUuid,
    channel: CommunicationChannelSchema,
    direction: CommunicationDirectionSchema,
    subject: Type.String({ minLength: 1, maxLength: 300 }),
    body: Type.Optional(Nullable(SafeText({ maxLength: 20_000 }))),
    /** Defaults to now. */
    occurred_at: Type.Optional(CrmDateTime),
  },
  { additionalProperties: false },
);
export type CommunicationCreateBody = Static<typeof CommunicationCreateBodySchema>;
