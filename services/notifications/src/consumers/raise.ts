import { idempotent, type Db, type EventHandler } from '@countinghouse/kit';
import { EVENT_TYPES, TOPICS, type EventData, type EventEnvelope } from '@countinghouse/proto';
import { Value } from '@sinclair/typebox/value';
import type { Logger } from 'pino';
import { companyNameOf, raise, seeClient } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import {
  deadlineOverdue,
  engagementSigned,
  documentUploaded,
  integrationSyncFailed,
  invitationAccepted,
  jobFailed,
  newClient,
  paymentFailed,
} from '../domain/compose.js';

export const RAISE_CONSUMER = 'notifications.raise';

/** The topics whose events raise notifications (each publishing service has one). */
export const RAISE_TOPICS = [
  TOPICS.crm,
  TOPICS.billing,
  TOPICS.documents,
  TOPICS.identity,
  TOPICS.integrations,
  TOPICS.jobs,
  TOPICS.deadlines,
  TOPICS.engagement,
];

const HANDLED = [
  'crm.client_upserted',
  'billing.payment_failed',
  'documents.document_uploaded',
  'identity.staff_joined',
  'integrations.sync_failed',
  'jobs.failed',
  'deadlines.deadline_overdue',
  'engagement.letter_signed',
] as const;
type Handled = (typeof HANDLED)[number];

/**
 * Events → notifications, once per event id: the processed-event row and the notification commit
 * together, and source_event_id is unique besides, so a redelivered event raises nothing new.
 */
export function raiseHandler(db: Db, logger: Logger): EventHandler {
  const apply = idempotent(db, SCHEMA, RAISE_CONSUMER, async (envelope, tx) => {
    let raised = false;
    switch (envelope.type as Handled) {
      case 'crm.client_upserted': {
        const d = envelope.data as EventData<'crm.client_upserted'>;
        // The event is sent on every change of a client; the first sighting of its id is the creation.
        if (await seeClient(tx, d.clientId, d.companyName)) raised = await raise(tx, envelope.id, newClient(d));
        break;
      }
      case 'billing.payment_failed':
        raised = await raise(tx, envelope.id, paymentFailed(envelope.data as EventData<'billing.payment_failed'>));
        break;
      case 'documents.document_uploaded': {
        const d = envelope.data as EventData<'documents.document_uploaded'>;
        raised = await raise(tx, envelope.id, documentUploaded(d, await companyNameOf(tx, d.clientId)));
        break;
      }
      case 'identity.staff_joined':
        raised = await raise(tx, envelope.id, invitationAccepted(envelope.data as EventData<'identity.staff_joined'>));
        break;
      case 'integrations.sync_failed': {
        const d = envelope.data as EventData<'integrations.sync_failed'>;
        raised = await raise(tx, envelope.id, integrationSyncFailed(d, await companyNameOf(tx, d.clientId)));
        break;
      }
      case 'jobs.failed':
        raised = await raise(tx, envelope.id, jobFailed(envelope.data as EventData<'jobs.failed'>));
        break;
      case 'deadlines.deadline_overdue':
        raised = await raise(tx, envelope.id, deadlineOverdue(envelope.data as EventData<'deadlines.deadline_overdue'>));
        break;
      case 'engagement.letter_signed':
        raised = await raise(tx, envelope.id, engagementSigned(envelope.data as EventData<'engagement.letter_signed'>));
        break;
    }
    if (raised) logger.debug({ eventId: envelope.id, type: envelope.type }, 'notification raised');
  });
  return async (envelope: EventEnvelope) => {
    if (!(HANDLED as readonly string[]).includes(envelope.type)) return;
    const schema = EVENT_TYPES[envelope.type as Handled];
    if (!Value.Check(schema, envelope.data)) {
      // A malformed event could never apply and would be retried forever: logged and skipped.
      logger.error(
        { eventId: envelope.id, type: envelope.type, errors: [...Value.Errors(schema, envelope.data)].slice(0, 5) },
        'malformed event skipped',
      );
      return;
    }
    await apply(envelope);
  };
}
