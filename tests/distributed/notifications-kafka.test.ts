import { generateSigningKeys, makeEnvelope, TokenSigner } from '@countinghouse/kit';
import { createTestDatabase, waitFor, type TestDatabase } from '@countinghouse/kit/testing';
import { topicOf, type EventData, type EventEnvelope, type EventType, type NotificationList } from '@countinghouse/proto';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, requireEnv, startNode, waitReady, type Proc } from '../processes.js';

// The notifications service as its own process on Kafka: events published by "other services" (this
// test's producer) raise notifications through its consumer group, once per event even when the
// same event arrives twice.

let db: TestDatabase;
let service: Proc;
let baseUrl: string;
let producer: Producer;
let token: string;
const run = randomUUID().slice(0, 8);

/** Publish as the owning service's relay would; one key keeps a test's events in one partition, in order. */
async function publish<T extends EventType>(key: string, type: T, data: EventData<T>, envelope?: EventEnvelope): Promise<EventEnvelope> {
  const e = envelope ?? makeEnvelope(type, data, { kind: 'system', id: null });
  await producer.send({ topic: topicOf(type), messages: [{ key, value: JSON.stringify(e) }] });
  return e;
}

async function list(query: string): Promise<NotificationList> {
  const r = await fetch(`${baseUrl}/api/notifications${query}`, { headers: { authorization: `Bearer ${token}` } });
  if (!r.ok) throw new Error(`${r.status} ${await r.text()}`);
  return (await r.json()) as NotificationList;
}

beforeAll(async () => {
  const brokers = requireEnv('TEST_KAFKA_BROKERS');
  db = await createTestDatabase();
  const keys = generateSigningKeys();
  const port = await freePort();
  service = startNode('services/notifications/src/main.ts', {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: db.url,
    KAFKA_BROKERS: brokers,
    REDIS_URL: requireEnv('TEST_REDIS_URL'),
    JWT_PUBLIC_KEY: keys.publicKeyPem,
    // A group of its own: this run's database sees every message, and no other run takes partitions from it.
    NOTIFICATIONS_CONSUMER_GROUP: `test-notifications-${run}`,
  });
  baseUrl = `http://127.0.0.1:${port}`;
  await waitReady(`${baseUrl}/health/ready`, service);
  const signer = await TokenSigner.fromPem(keys.privateKeyPem);
  token = (await signer.sign({ sub: randomUUID(), sid: randomUUID(), knd: 'admin', roles: ['admin'], name: 'dist.admin' })).token;
  const kafka = new Kafka({ clientId: `test-producer-${run}`, brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  producer = kafka.producer({ allowAutoTopicCreation: true });
  await producer.connect();
}, 120_000);

afterAll(async () => {
  await producer?.disconnect().catch(() => {});
  await service?.stop();
  await db?.drop();
});

describe('distributed: the notifications service on Kafka', () => {
  it('a client and a document upload, each delivered twice, raise one notification each', async () => {
    const clientId = randomUUID();
    const company = `Kafka Kitchens ${run}`;
    const filename = `kafka-${run}.pdf`;
    const client = await publish(clientId, 'crm.client_upserted', {
      clientId,
      userId: null,
      companyName: company,
      contactName: null,
      contactEmail: `k-${run}@example.com`,
      packageName: 'Starter',
      monthlyFee: 99,
      subscriptionStatus: 'active',
      assignedAccountantId: null,
    });
    await publish(clientId, 'crm.client_upserted', client.data as EventData<'crm.client_upserted'>, client);
    // crm's and documents' events travel on different topics, with no order between them: the upload's
    // text names the company only once the client is known, as in life, where a client exists before
    // its first upload. So the client's notification first (a CI run under load read the topics the
    // other way round).
    await waitFor(
      async () => (await list('?kind=new_client&page_size=100')).notifications.some((n) => n.body.startsWith(company)),
      'the new client notification',
      60_000,
    );
    const upload = await publish(clientId, 'documents.document_uploaded', {
      documentId: randomUUID(),
      clientId,
      filename,
      documentType: 'cis',
      fileSize: 10,
      uploadedBy: randomUUID(),
    });
    await publish(clientId, 'documents.document_uploaded', upload.data as EventData<'documents.document_uploaded'>, upload);

    const doc = await waitFor(
      async () => (await list('?kind=document_uploaded&page_size=100')).notifications.find((n) => n.body.startsWith(filename)),
      'the upload notification',
      60_000,
    );
    expect(doc).toMatchObject({
      body: `${filename} (CIS Returns) was uploaded for ${company}.`,
      source_event_id: upload.id,
      is_read: false,
    });
    const clients = (await list('?kind=new_client&page_size=100')).notifications.filter((n) => n.body.startsWith(company));
    expect(clients.map((n) => n.source_event_id)).toEqual([client.id]);
    // A later upload in the same partition: once it is raised, the duplicates before it were consumed.
    await publish(clientId, 'documents.document_uploaded', {
      ...(upload.data as EventData<'documents.document_uploaded'>),
      documentId: randomUUID(),
      filename: `later-${filename}`,
    });
    await waitFor(
      async () => (await list('?kind=document_uploaded&page_size=100')).notifications.some((n) => n.body.startsWith(`later-${filename}`)),
      'the later upload',
      60_000,
    );
    const mine = (await list('?kind=document_uploaded&page_size=100')).notifications.filter((n) => n.body.startsWith(filename));
    expect(mine.map((n) => n.source_event_id)).toEqual([upload.id]);
    expect((await list('?kind=new_client&page_size=100')).notifications.filter((n) => n.body.startsWith(company))).toHaveLength(1);
  });
});
