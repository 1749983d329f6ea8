import { createTestKit, type TestKit } from '@countinghouse/kit/testing';
import { UNREAD_COUNT_CAP } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markAllRead, markRead, stateOf, unreadCount, unreadCountQuery, type Recipient } from '../src/db/queries.js';

/**
 * The bell polls the unread count every 30 s for every administrator: at hundreds of thousands of
 * notifications it must still read a bounded slice of one index, never the table.
 */
const ROWS = 300_000;
let kit: TestKit;
const fresh: Recipient = { kind: 'admin', id: 'never-read-anything' };
const caughtUp: Recipient = { kind: 'user', id: 'reads-everything' };

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

function nodes(p: PlanNode): PlanNode[] {
  return [p, ...(p.Plans ?? []).flatMap(nodes)];
}

async function plan(r: Recipient): Promise<{ nodes: PlanNode[]; ms: number }> {
  const q = unreadCountQuery(r, await stateOf(kit.runtime.db, r))!;
  const res = await kit.runtime.db.execute<{ 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number }> }>(
    sql`explain (analyze, format json) ${q}`,
  );
  const top = res.rows[0]!['QUERY PLAN'][0]!;
  return { nodes: nodes(top.Plan), ms: top['Execution Time'] };
}

beforeAll(async () => {
  kit = await createTestKit();
  const kinds = ['new_client', 'payment_failed', 'document_uploaded', 'invitation_accepted', 'integration_sync_failed'];
  await kit.runtime.pool.query(
    `insert into notifications.notifications (kind, title, body, link, source_event_id, created_at)
     select ($1::text[])[1 + i % 5], 'Document uploaded', 'file ' || i || '.pdf was uploaded', '/admin/documents', gen_random_uuid(),
            now() - make_interval(secs => $2 - i)
     from generate_series(1, $2) i`,
    [kinds, ROWS],
  );
  await kit.runtime.pool.query('vacuum analyze notifications.notifications');
  await markAllRead(kit.runtime.db, caughtUp);
  await kit.runtime.pool.query(
    `insert into notifications.notifications (kind, title, body, link, source_event_id)
     select 'payment_failed', 'Failed payment', 'late ' || i, '/admin/billing', gen_random_uuid() from generate_series(1, 5) i`,
  );
  const { rows } = await kit.runtime.pool.query('select id from notifications.notifications order by seq desc limit 2');
  for (const r of rows) await markRead(kit.runtime.db, caughtUp, r.id);
  // Some receipts for the fresh recipient too, far down the table.
  const { rows: old } = await kit.runtime.pool.query('select id from notifications.notifications where seq < 100');
  for (const r of old.slice(0, 20)) await markRead(kit.runtime.db, fresh, r.id);
  await kit.runtime.pool.query('analyze notifications.read_receipts');
}, 120_000);

afterAll(async () => {
  await kit?.close();
});

describe(`unread count over ${ROWS.toLocaleString('en-GB')} notifications`, () => {
  it('a recipient who never read anything: the walk stops at the cap, on the index, without the table', async () => {
    expect(await unreadCount(kit.runtime.db, fresh)).toEqual({ count: UNREAD_COUNT_CAP, capped: true });
    const { nodes: n, ms } = await plan(fresh);
    expect(n.some((x) => x['Node Type'] === 'Seq Scan' && x['Relation Name'] === 'notifications')).toBe(false);
    const scan = n.find((x) => x['Relation Name'] === 'notifications')!;
    expect(scan['Node Type']).toMatch(/Index (Only )?Scan/);
    expect(scan['Index Name']).toBe('notifications_pkey');
    // Bounded work: about the cap's worth of index entries, not the table's 300,000.
    expect(scan['Actual Rows'] * scan['Actual Loops']).toBeLessThanOrEqual(UNREAD_COUNT_CAP + 50);
    expect(ms).toBeLessThan(500);
  });

  it('a recipient who marked all read: a range scan above the watermark, minus receipts', async () => {
    expect(await unreadCount(kit.runtime.db, caughtUp)).toEqual({ count: 3, capped: false });
    const { nodes: n } = await plan(caughtUp);
    expect(n.some((x) => x['Node Type'] === 'Seq Scan' && x['Relation Name'] === 'notifications')).toBe(false);
    const scan = n.find((x) => x['Relation Name'] === 'notifications')!;
    expect(scan['Node Type']).toMatch(/Index (Only )?Scan/);
    expect(scan['Actual Rows'] * scan['Actual Loops']).toBeLessThanOrEqual(5);
  });
});
