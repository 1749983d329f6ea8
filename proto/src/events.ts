import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { BILLING_EVENTS } from './billing/events.js';
import { CRM_EVENTS } from './crm/events.js';
import { DOCUMENTS_EVENTS } from './documents/events.js';
import { IDENTITY_EVENTS } from './identity/events.js';
import { INTEGRATIONS_EVENTS } from './integrations/events.js';
import { JOBS_EVENTS } from './job-status.js';
import { MEDIA_EVENTS } from './media/events.js';
import { SETTINGS_EVENTS } from './settings/events.js';
import { DEADLINES_EVENTS } from './deadlines/events.js';
import { AML_EVENTS } from './aml/events.js';
import { ENGAGEMENT_EVENTS } from './engagement/events.js';
import { REQUESTS_EVENTS } from './requests/events.js';
import { RECORDS_EVENTS } from './records/events.js';

/** One Kafka topic per publishing service. */
export const TOPICS = {
  identity: 'countinghouse.identity',
  documents: 'countinghouse.documents',
  crm: 'countinghouse.crm',
  billing: 'countinghouse.billing',
  integrations: 'countinghouse.integrations',
  media: 'countinghouse.media',
  settings: 'countinghouse.settings',
  /** The job platform (kit): jobs.failed. */
  jobs: 'countinghouse.jobs',
  deadlines: 'countinghouse.deadlines',
  aml: 'countinghouse.aml',
  engagement: 'countinghouse.engagement',
  requests: 'countinghouse.requests',
  records: 'countinghouse.records',
} as const;
export type ServiceName = keyof typeof TOPICS;

export const ActorSchema = Type.Object({
  kind: Type.Union([Type.Literal('user'), Type.Literal('admin'), Type.Literal('system')]),
  id: Type.Union([Type.String(), Type.Null()]),
  /** Who, by name, and from which address (the audit trail, issue 34); absent on older events and the system's. */
  name: Type.Optional(Type.String()),
  ip: Type.Optional(Type.String()),
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

// Each service's event payload schemas live beside its other contracts; this is the one registry.
export const EVENT_TYPES = {
  ...IDENTITY_EVENTS,
  ...CRM_EVENTS,
  ...DOCUMENTS_EVENTS,
  ...BILLING_EVENTS,
  ...INTEGRATIONS_EVENTS,
  ...MEDIA_EVENTS,
  ...SETTINGS_EVENTS,
  ...JOBS_EVENTS,
  ...DEADLINES_EVENTS,
  ...AML_EVENTS,
  ...ENGAGEMENT_EVENTS,
  ...REQUESTS_EVENTS,
  ...RECORDS_EVENTS,
} as const satisfies Record<string, TSchema>;
export type EventType = keyof typeof EVENT_TYPES;
export type EventData<T extends EventType> = Static<(typeof EVENT_TYPES)[T]>;

/**
 * Event types carried on a topic of their own instead of their service's: a frequent event that few
 * consumers want, kept off a topic every process follows. Every process (each replica too) follows the
 * identity topic for revocations, so each event there woke all of them, and each answered with a fetch
 * and an offset commit: at 7.5 administrator sign-ins a second (the k6 mix at 150 iterations a second)
 * that was most of the broker's CPU and about 4 ms of CPU per sign-in across the processes (issue 35,
 * docs/perf/capacity.md). Consumers subscribe by type (kit's subscribe takes each type's topic), so one
 * that wants these events follows them here (decision 670).
 */
export const OWN_TOPICS: Readonly<Record<string, string>> = {
  'identity.admin_signed_in': 'countinghouse.identity.sign-ins',
};

/** TOPICS looked up by any string (the part of an event type before its first dot). */
const TOPIC_OF_SERVICE: Readonly<Record<string, string>> = TOPICS;

export function topicOf(type: string): string {
  const own = OWN_TOPICS[type];
  if (own) return own;
  const [service = ''] = type.split('.');
  const topic = TOPIC_OF_SERVICE[service];
  if (!topic) throw new Error(`No topic for event type ${type}`);
  return topic;
}
