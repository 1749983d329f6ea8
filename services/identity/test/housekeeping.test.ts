import { previousSlot } from '@countinghouse/kit';
import { waitFor } from '@countinghouse/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../../gateway/test/helpers.js';

// identity's daily housekeeping: a real schedule on the real queue, run as it would after the
// product was down over its slot.
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
});

const DAY = 24 * 3600 * 1000;

describe('identity housekeeping (identity.purge_expired_sessions, daily 03:30 London time)', () => {
  it('is declared on start and deletes only what ended more than 30 days before its slot', async () => {
    const q = (text: string, values: unknown[] = []) => gw.kit.runtime.pool.query(text, values);
    const { rows } = await q(`select id from identity.admin_users limit 1`);
    const adminId = rows[0].id as string;
    const slot = previousSlot('30 3 * * *', new Date());
    const at = (daysBeforeSlot: number) => new Date(slot.getTime() - daysBeforeSlot * DAY).toISOString();
    const session = (tag: string, expires: string, revoked: string | null) =>
      q(`insert into identity.admin_sessions (admin_id, refresh_hash, expires_at, revoked_at) values ($1, $2, $3, $4)`, [
        adminId,
        `hash-${tag}`,
        expires,
        revoked,
      ]);
    await session('expired-long-ago', at(31), null);
    await session('revoked-long-ago', at(-5), at(40));
    await session('expired-recently', at(29), null);
    await session('revoked-recently', at(-5), at(2));
    await session('active', at(-5), null);
    await q(
      `insert into identity.processed_events (consumer, event_id, processed_at) values ('x', gen_random_uuid(), $1), ('x', gen_random_uuid(), $2)`,
      [at(31), at(1)],
    );

    // The schedule was declared by the plugin; the product was then down over two of its slots.
    const declared = await q(`select job, cron, payload from jobs.schedules where key = 'identity.housekeeping'`);
    expect(declared.rows[0]).toEqual({ job: 'identity.purge_expired_sessions', cron: '30 3 * * *', payload: { olderThanDays: 30 } });
    await q(`update jobs.schedules set last_slot = $1 where key = 'identity.housekeeping'`, [at(2)]);
    await (gw.kit.runtime.jobs as unknown as { tickSchedules(): Promise<void> }).tickSchedules();

    const view = await waitFor(async () => {
      const s = (await gw.kit.runtime.jobs.listSchedules()).find((x) => x.key === 'identity.housekeeping');
      return s?.last_outcome === 'completed' ? s : null;
    }, 'housekeeping run completed');
    expect(view.last_run_at).not.toBeNull();
    const left = await q(`select refresh_hash from identity.admin_sessions where refresh_hash like 'hash-%' order by 1`);
    expect(left.rows.map((r) => r.refresh_hash)).toEqual(['hash-active', 'hash-expired-recently', 'hash-revoked-recently']);
    const events = await q(`select count(*)::int as n from identity.processed_events where consumer = 'x'`);
    expect(events.rows[0].n).toBe(1);
    // one run for the two missed slots (the schedule does not ask for catch-up)
    const runs = await q(`select count(*)::int as n from pgboss.job where data->'schedule'->>'key' = 'identity.housekeeping'`);
    expect(runs.rows[0].n).toBe(1);
  });
});
