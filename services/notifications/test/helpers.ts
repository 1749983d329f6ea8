import { makeEnvelope } from '@countinghouse/kit';
import { topicOf, type EventData, type EventEnvelope, type EventType } from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import type { TestGateway } from '../../../gateway/test/helpers.js';

/** An event as its service's outbox relay would publish it. */
export function envelopeOf<T extends EventType>(type: T, data: EventData<T>): EventEnvelope<EventData<T>> {
  return makeEnvelope(type, data, { kind: 'system', id: null });
}

/** Deliver an envelope through the runtime's bus (as a relay would); deliver it again to test redelivery. */
export async function deliver(gw: TestGateway, envelope: EventEnvelope, key: string | null = null) {
  await gw.kit.runtime.bus.publish(topicOf(envelope.type), [{ key, envelope }]);
}

export function clientUpserted(over: Partial<EventData<'crm.client_upserted'>> = {}): EventData<'crm.client_upserted'> {
  return {
    clientId: randomUUID(),
    userId: null,
    companyName: 'Acme Bakery Ltd',
    contactName: 'Ada Baker',
    contactEmail: 'ada@acme.co.uk',
    packageName: 'Growth',
    monthlyFee: 149.5,
    subscriptionStatus: 'active',
    assignedAccountantId: null,
    ...over,
  };
}

export function paymentFailed(over: Partial<EventData<'billing.payment_failed'>> = {}): EventData<'billing.payment_failed'> {
  return {
    subscriptionId: randomUUID(),
    userId: randomUUID(),
    email: 'ada@acme.co.uk',
    packageName: 'Growth',
    monthlyFee: 1249.5,
    status: 'overdue',
    currentPeriodEnd: null,
    provider: 'test',
    invoiceId: 'in_1',
    amount: 1249.5,
    ...over,
  };
}

export function documentUploaded(
  clientId: string,
  over: Partial<EventData<'documents.document_uploaded'>> = {},
): EventData<'documents.document_uploaded'> {
  return {
    documentId: randomUUID(),
    clientId,
    filename: 'vat-q1.pdf',
    documentType: 'vat',
    fileSize: 1234,
    uploadedBy: randomUUID(),
    ...over,
  };
}

/**
 * Wait until no service has events left to relay and the notifications stop changing: one event can
 * lead to another (a failed payment makes crm create the client, whose event is a 'New client').
 */
export async function settle(gw: TestGateway) {
  const pool = gw.kit.runtime.pool;
  const { rows: schemas } = await pool.query<{ s: string }>(
    `select table_schema as s from information_schema.tables where table_name = 'outbox' and table_schema not like '%_meta'`,
  );
  let last = -1;
  for (let i = 0; i < 100; i++) {
    let pending = 0;
    for (const { s } of schemas) {
      const { rows } = await pool.query(`select count(*)::int as n from "${s}".outbox where published_at is null`);
      pending += rows[0].n as number;
    }
    const { rows } = await pool.query('select count(*)::int as n from notifications.notifications');
    const n = rows[0].n as number;
    if (pending === 0 && n === last) return;
    last = n;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('events did not settle');
}
