import { subscribe, type ConsumerRuntime, type EventOf, type Tx } from '@countinghouse/kit';
import type { Logger } from 'pino';
import { companyNameOf, raise, seeClient } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import {
  amlReviewDue,
  engagementSigned,
  deadlineOverdue,
  documentUploaded,
  integrationSyncFailed,
  invitationAccepted,
  jobFailed,
  newClient,
  paymentFailed,
} from '../domain/compose.js';

export const RAISE_CONSUMER = 'notifications.raise';

/** The events that raise notifications (their topics are subscribed: one per publishing service). */
export const RAISE_TYPES = [
  'crm.client_upserted',
  'billing.payment_failed',
  'documents.document_uploaded',
  'identity.staff_joined',
  'integrations.sync_failed',
  'jobs.failed',
  'deadlines.deadline_overdue',
  'aml.review_due',
  'engagement.letter_signed',
] as const;
export type RaiseEvent = EventOf<(typeof RAISE_TYPES)[number]>;

/** One event → at most one notification (source_event_id is unique, so a redelivered event raises nothing new). */
export async function raiseNotification(event: RaiseEvent, tx: Tx): Promise<boolean> {
  switch (event.type) {
    case 'crm.client_upserted':
      // The event is sent on every change of a client; the first sighting of its id is the creation.
      return (await seeClient(tx, event.data.clientId, event.data.companyName)) && raise(tx, event.id, newClient(event.data));
    case 'billing.payment_failed':
      return raise(tx, event.id, paymentFailed(event.data));
    case 'documents.document_uploaded':
      return raise(tx, event.id, documentUploaded(event.data, await companyNameOf(tx, event.data.clientId)));
    case 'identity.staff_joined':
      return raise(tx, event.id, invitationAccepted(event.data));
    case 'integrations.sync_failed':
      return raise(tx, event.id, integrationSyncFailed(event.data, await companyNameOf(tx, event.data.clientId)));
    case 'jobs.failed':
      return raise(tx, event.id, jobFailed(event.data));
    case 'deadlines.deadline_overdue':
      return raise(tx, event.id, deadlineOverdue(event.data));
    case 'aml.review_due':
      return raise(tx, event.id, amlReviewDue(event.data));
    case 'engagement.letter_signed':
      return raise(tx, event.id, engagementSigned(event.data));
  }
}

/**
 * Events → notifications, once per event id: the processed-event record and the notification commit
 * together; a malformed event is logged and skipped (kit's subscribe).
 */
export async function subscribeRaise(runtime: ConsumerRuntime, group: string = RAISE_CONSUMER, logger: Logger = runtime.logger) {
  await subscribe(runtime, {
    group,
    consumer: RAISE_CONSUMER,
    schema: SCHEMA,
    types: RAISE_TYPES,
    handler: async (event, tx) => {
      if (await raiseNotification(event, tx)) logger.debug({ eventId: event.id, type: event.type }, 'notification raised');
    },
  });
}
