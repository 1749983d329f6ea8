import { TOPICS, type EventData, type EventEnvelope } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { getTableConfig, integer, pgSchema, text } from 'drizzle-orm/pg-core';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientDirectoryEntry, clientDirectoryTable, InProcessBus, subscribeClientDirectory, upsertClientDirectory } from '../src/index.js';
import { createTestKit, type TestKit } from '../src/testing/index.js';

// The client directory every service keeps of crm's clients (client-directory.ts): its common columns,
// the newest event wins, the lookup, and the consumer.

const schema = pgSchema('kit_directory');
const directory = clientDirectoryTable(schema, {
  indexPrefix: 'kit_directory_',
  columns: { contactEmail: text('contact_email').notNull(), businessType: text('business_type'), feePence: integer('fee_pence') },
});

let kit: TestKit;
beforeAll(async () => {
  kit = await createTestKit();
  await kit.runtime.pool.query(`
    create schema kit_directory;
    create table kit_directory.client_directory (client_id text primary key, user_id text, company_name text not null,
      assigned_accountant_id text, source_at timestamptz not null, contact_email text not null, business_type text, fee_pence integer);
    create table kit_directory.processed_events (consumer text not null, event_id uuid not null,
      processed_at timestamptz not null default now(), primary key (consumer, event_id));`);
});
afterAll(async () => {
  await kit?.close();
});

const at = (iso: string) => new Date(iso);
const row = (over: Partial<typeof directory.$inferInsert> = {}) => ({
  clientId: 'c1',
  userId: 'u-owner',
  companyName: 'Acme Ltd',
  assignedAccountantId: 'u-acc',
  sourceAt: at('2026-03-01T10:00:00Z'),
  contactEmail: 'a@acme.test',
  businessType: 'limited',
  feePence: 1000,
  ...over,
});

describe('clientDirectoryTable', () => {
  it('has the common columns, then the service’s own, and the two common indexes', () => {
    const c = getTableConfig(directory);
    expect(c.schema).toBe('kit_directory');
    expect(c.name).toBe('client_directory');
    expect(c.columns.map((x) => [x.name, x.getSQLType(), x.notNull, x.primary])).toEqual([
      ['client_id', 'text', true, true],
      ['user_id', 'text', false, false],
      ['company_name', 'text', true, false],
      ['assigned_accountant_id', 'text', false, false],
      ['source_at', 'timestamp with time zone', true, false],
      ['contact_email', 'text', true, false],
      ['business_type', 'text', false, false],
      ['fee_pence', 'integer', false, false],
    ]);
    expect(c.indexes.map((i) => i.config.name)).toEqual(['kit_directory_user_idx', 'kit_directory_accountant_idx']);
  });
});

describe('upsertClientDirectory and clientDirectoryEntry', () => {
  it('inserts, lets a newer event overwrite and an older one change nothing, and reads the whole row', async () => {
    const db = kit.runtime.db;
    expect(await clientDirectoryEntry(db, directory, 'c1')).toBeNull();
    expect(await upsertClientDirectory(db, directory, row())).toBe(true);
    expect(await clientDirectoryEntry(db, directory, 'c1')).toEqual(row());

    const newer = row({ companyName: 'Acme Group Ltd', userId: null, assignedAccountantId: null, sourceAt: at('2026-03-02T10:00:00Z') });
    expect(await upsertClientDirectory(db, directory, newer)).toBe(true);
    expect(await clientDirectoryEntry(db, directory, 'c1')).toEqual(newer);

    const older = row({ companyName: 'Stale Ltd', sourceAt: at('2026-03-01T12:00:00Z') });
    expect(await upsertClientDirectory(db, directory, older)).toBe(false);
    expect(await clientDirectoryEntry(db, directory, 'c1')).toEqual(newer);

    // the same event again (a redelivery) still writes: not older than the one that wrote the row
    expect(await upsertClientDirectory(db, directory, newer)).toBe(true);
  });

  it('sets what `update` says instead of the event’s value, and locks the entry when asked', async () => {
    const db = kit.runtime.db;
    const keep = { businessType: sql`coalesce(excluded.business_type, ${directory.businessType})` };
    await upsertClientDirectory(db, directory, row({ clientId: 'c2' }), keep);
    await upsertClientDirectory(db, directory, row({ clientId: 'c2', businessType: null, sourceAt: at('2026-03-05T00:00:00Z') }), keep);
    const locked = await db.transaction(async (tx) => clientDirectoryEntry(tx, directory, 'c2', { forUpdate: true }));
    expect(locked).toMatchObject({ businessType: 'limited', sourceAt: at('2026-03-05T00:00:00Z') });
  });
});

describe('subscribeClientDirectory', () => {
  const event = (data: EventData<'crm.client_upserted'>, occurredAt: string): EventEnvelope => ({
    id: crypto.randomUUID(),
    type: 'crm.client_upserted',
    version: 1,
    occurredAt,
    actor: { kind: 'system', id: null },
    data,
  });
  const data: EventData<'crm.client_upserted'> = {
    clientId: 'c3',
    userId: 'u-3',
    companyName: 'Three Ltd',
    contactName: 'T. Hree',
    contactEmail: 'three@three.test',
    packageName: 'Core',
    monthlyFee: 12.5,
    subscriptionStatus: 'active',
    assignedAccountantId: 'u-acc',
  };

  it('writes each event once with the service’s own columns, then runs what follows in the same transaction', async () => {
    const bus = new InProcessBus();
    const then: Array<{ clientId: string; written: boolean; seen: string | undefined }> = [];
    await subscribeClientDirectory(
      { bus, db: kit.runtime.db, logger: pino({ level: 'silent' }) },
      {
        group: 'kit.client-directory',
        schema: 'kit_directory',
        table: directory,
        extra: (d) => ({ contactEmail: d.contactEmail, businessType: d.businessType ?? null, feePence: Math.round(d.monthlyFee * 100) }),
        then: async (tx, e, written) => {
          const entry = await clientDirectoryEntry(tx, directory, e.data.clientId);
          then.push({ clientId: e.data.clientId, written, seen: entry?.companyName });
        },
      },
    );
    const first = event(data, '2026-04-01T09:00:00.000Z');
    await bus.publish(TOPICS.crm, [{ key: 'c3', envelope: first }]);
    await bus.publish(TOPICS.crm, [{ key: 'c3', envelope: first }]); // redelivered: once
    await bus.publish(TOPICS.crm, [{ key: 'c3', envelope: event({ ...data, companyName: 'Old Ltd' }, '2026-03-01T09:00:00.000Z') }]);
    expect(then).toEqual([
      { clientId: 'c3', written: true, seen: 'Three Ltd' },
      { clientId: 'c3', written: false, seen: 'Three Ltd' },
    ]);
    expect(await clientDirectoryEntry(kit.runtime.db, directory, 'c3')).toEqual({
      clientId: 'c3',
      userId: 'u-3',
      companyName: 'Three Ltd',
      assignedAccountantId: 'u-acc',
      sourceAt: at('2026-04-01T09:00:00.000Z'),
      contactEmail: 'three@three.test',
      businessType: null,
      feePence: 1250,
    });
  });

  it('writes the row the service’s own way when it says how', async () => {
    const bus = new InProcessBus();
    const writes: Array<{ clientId: string; contactEmail: string }> = [];
    const then: boolean[] = [];
    await subscribeClientDirectory(
      { bus, db: kit.runtime.db, logger: pino({ level: 'silent' }) },
      {
        group: 'kit.client-directory-own-write',
        schema: 'kit_directory',
        table: directory,
        extra: (d) => ({ contactEmail: d.contactEmail }),
        write: async (tx, r) => {
          writes.push({ clientId: r.clientId, contactEmail: r.contactEmail });
          return upsertClientDirectory(tx, directory, r);
        },
        then: async (_tx, _e, written) => {
          then.push(written);
        },
      },
    );
    await bus.publish(TOPICS.crm, [{ key: 'c4', envelope: event({ ...data, clientId: 'c4' }, '2026-04-02T09:00:00.000Z') }]);
    expect(writes).toEqual([{ clientId: 'c4', contactEmail: 'three@three.test' }]);
    expect(then).toEqual([true]);
    expect(await clientDirectoryEntry(kit.runtime.db, directory, 'c4')).toMatchObject({ companyName: 'Three Ltd', feePence: null });
  });
});
