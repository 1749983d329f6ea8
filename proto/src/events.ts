import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** One Kafka topic per publishing service. */
export const TOPICS = {
  identity: 'countinghouse.identity',
  documents: 'countinghouse.documents',
  crm: 'countinghouse.crm',
  billing: 'countinghouse.billing',
  integrations: 'countinghouse.integrations',
  media: 'countinghouse.media',
} as const;
export type ServiceName = keyof typeof TOPICS;

export const ActorSchema = Type.Object({
  kind: Type.Union([Type.Literal('user'), Type.Literal('admin'), Type.Literal('system')]),
  id: Type.Union([Type.String(), Type.Null()]),
});
export type Actor = Static<typeof ActorSchema>;

export const EventEnvelopeSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  type: Type.String({ pattern: '^[a-z]+\\.[a-z_]+$' }),
  version: Type.Integer({ minimum: 1 }),
  occurredAt: Type.String({ format: 'date-time' }),
  actor: ActorSchema,
  data: Type.Unknown(),
});
export type EventEnvelope<D = unknown> = Omit<Static<typeof EventEnvelopeSchema>, 'data'> & { data: D };

// Event payloads. Each event's data schema lives here so producers and consumers share it.
export const AdminSignedInSchema = Type.Object({
  adminId: Type.String(),
  username: Type.String(),
  sessionId: Type.String(),
  ip: Type.Union([Type.String(), Type.Null()]),
});
export const SessionRevokedSchema = Type.Object({
  sessionId: Type.String(),
  subjectId: Type.String(),
  /** Seconds since epoch after which no token of this session could be valid anyway. */
  until: Type.Integer(),
});
export const SubjectAccessRevokedSchema = Type.Object({
  subjectId: Type.String(),
  /** Tokens issued before this instant (seconds) are refused. */
  issuedBefore: Type.Integer(),
});

export const StaffJoinedSchema = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  role: Type.String(),
  invitationId: Type.String(),
});
export const InvitationCreatedSchema = Type.Object({
  invitationId: Type.String(),
  email: Type.String(),
  role: Type.String(),
  expiresAt: Type.String(),
});
export const UserRegisteredSchema = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  firstName: Type.Union([Type.String(), Type.Null()]),
  lastName: Type.Union([Type.String(), Type.Null()]),
  companyName: Type.Union([Type.String(), Type.Null()]),
});
export const RoleChangedSchema = Type.Object({
  userId: Type.String(),
  role: Type.String(),
  isActive: Type.Boolean(),
  /** Who holds the role now, for read models (e.g. Team Members counts, accountant names). */
  email: Type.String(),
  name: Type.String(),
});

export const EVENT_TYPES = {
  'identity.admin_signed_in': AdminSignedInSchema,
  'identity.session_revoked': SessionRevokedSchema,
  'identity.subject_access_revoked': SubjectAccessRevokedSchema,
  'identity.staff_joined': StaffJoinedSchema,
  'identity.invitation_created': InvitationCreatedSchema,
  'identity.user_registered': UserRegisteredSchema,
  'identity.role_changed': RoleChangedSchema,
} as const satisfies Record<string, TSchema>;
export type EventType = keyof typeof EVENT_TYPES;
export type EventData<T extends EventType> = Static<(typeof EVENT_TYPES)[T]>;

export function topicOf(type: string): string {
  const service = type.split('.')[0] as ServiceName;
  const topic = TOPICS[service];
  if (!topic) throw new Error(`No topic for event type ${type}`);
  return topic;
}
