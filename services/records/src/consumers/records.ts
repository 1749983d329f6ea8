import { subscribe, type Runtime } from '@countinghouse/kit';
import { followAcspVerification, recordErased } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { AUDITED_EVENTS } from '../domain/summary.js';
import { appendAudit } from '../use-cases/audit.js';
import { followClient } from '../use-cases/retention.js';
import { receivePart } from '../use-cases/subject-access.js';

/** Every audited event becomes one chained entry (once per event id: the kit's idempotency record). */
export async function subscribeAudit(runtime: Runtime): Promise<void> {
  await subscribe(runtime, {
    group: 'records.audit',
    schema: SCHEMA,
    types: [...AUDITED_EVENTS],
    handler: async (event, tx) => appendAudit(tx, event),
  });
}

/** crm's clients (the relationship's end) and the services' answers to erase requests (the report). */
export async function subscribeRetention(runtime: Runtime): Promise<void> {
  await subscribe(runtime, {
    group: 'records.retention',
    schema: SCHEMA,
    types: [
      'crm.client_upserted',
      'aml.identity_verification_recorded',
      'documents.records_erased',
      'aml.records_erased',
      'engagement.records_erased',
    ],
    handler: async (event, tx) => {
      if (event.type === 'crm.client_upserted') await followClient(tx, event.data, event.occurredAt);
      else if (event.type === 'aml.identity_verification_recorded') await followAcspVerification(tx, event.data);
      else await recordErased(tx, { ...event.data, service: event.type.split('.')[0]!, at: new Date(event.occurredAt) });
    },
  });
}

/** The services' parts of subject-access archives. */
export async function subscribeSubjectAccess(runtime: Runtime, now: () => Date): Promise<void> {
  await subscribe(runtime, {
    group: 'records.subject-access',
    schema: SCHEMA,
    types: [
      'crm.subject_access_part',
      'documents.subject_access_part',
      'engagement.subject_access_part',
      'requests.subject_access_part',
      'aml.subject_access_part',
      'deadlines.subject_access_part',
    ],
    handler: async (event, tx) => receivePart(tx, event.type.split('.')[0]!, event.data, now()),
  });
}
