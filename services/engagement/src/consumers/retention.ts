import { enqueueEvent, subscribe, type Runtime } from '@countinghouse/kit';
import { enGbDate, londonDate } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { SCHEMA } from '../db/schema.js';

export const RETENTION_CONSUMER = 'engagement.retention';

/**
 * records.erase_requested for engagement letters (issue 34: the life of the engagement and 6 years after,
 * Limitation Act 1980 s.5, or longer as the schedule says): the client's letters, their reminders and
 * their audit go; the answer (engagement.records_erased) commits with them. The triggers that refuse any
 * DELETE let this one through by a setting local to its transaction. The signed PDFs filed as documents
 * are erased by the documents service from the same request.
 */
export async function subscribeRetention(runtime: Runtime): Promise<void> {
  await subscribe(runtime, {
    group: RETENTION_CONSUMER,
    schema: SCHEMA,
    types: ['records.erase_requested'],
    handler: async (event, tx) => {
      const d = event.data;
      if (d.recordType !== 'engagement_letters') return;
      const dated = d.recordedBefore ? sql`and sent_at < (${d.recordedBefore}::date::timestamp at time zone 'Europe/London')` : sql``;
      await tx.execute(sql`select set_config('engagement.retention_erase', 'on', true)`);
      const gone = await tx.execute<{ id: string; version: number; signed_at: Date | null }>(sql`
        delete from engagement.letters where client_id = ${d.clientId} ${dated} returning id::text, version, signed_at`);
      const ids = gone.rows.map((r) => r.id);
      if (ids.length) {
        const list = sql.join(
          ids.map((id) => sql`${id}::uuid`),
          sql`, `,
        );
        await tx.execute(sql`delete from engagement.reminders where letter_id in (${list})`);
        await tx.execute(sql`delete from engagement.audit where letter_id in (${list})`);
      }
      await tx.execute(sql`select set_config('engagement.retention_erase', 'off', true)`);
      await enqueueEvent(
        tx,
        SCHEMA,
        'engagement.records_erased',
        {
          runId: d.runId,
          clientId: d.clientId,
          recordType: 'engagement_letters',
          items: gone.rows.map((r) => ({
            id: r.id,
            label: `Engagement letter version ${r.version}${r.signed_at ? `, signed ${enGbDate(londonDate(new Date(r.signed_at)))}` : ', unsigned'}`,
            files: 0,
          })),
        },
        { actor: event.actor, key: d.clientId },
      );
    },
  });
}
