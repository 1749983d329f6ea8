import type { Db } from '@countinghouse/kit';
import type { IntegrationType } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { DAY_MS, MINUTE_MS, type CallBudget } from '../domain/rate-limit.js';

/**
 * Take one call from an organisation's budget (a sliding minute and day, counted in provider_calls):
 * null when the call may go now (and it is recorded), else when the next call fits. An advisory lock
 * per organisation serialises the check-and-record across every replica.
 */
export async function takeProviderCall(
  db: Db,
  provider: IntegrationType,
  organisation: string,
  budget: CallBudget,
  now: Date,
): Promise<Date | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`integrations-budget:${provider}:${organisation}`}))`);
    const minuteFrom = new Date(now.getTime() - MINUTE_MS);
    const dayFrom = new Date(now.getTime() - DAY_MS);
    await tx.execute(
      sql`delete from integrations.provider_calls where provider = ${provider} and organisation = ${organisation} and at <= ${dayFrom}`,
    );
    // The perMinute-th newest call of the minute (and perDay-th of the day) is the one whose leaving frees a slot.
    const res = await tx.execute<{ minute_block: Date | string | null; day_block: Date | string | null }>(sql`
      select
        (select at from integrations.provider_calls
          where provider = ${provider} and organisation = ${organisation} and at > ${minuteFrom}
          order by at desc offset ${budget.perMinute - 1} limit 1) as minute_block,
        (select at from integrations.provider_calls
          where provider = ${provider} and organisation = ${organisation} and at > ${dayFrom}
          order by at desc offset ${budget.perDay - 1} limit 1) as day_block`);
    const row = res.rows[0];
    const blocks = [
      row?.minute_block ? new Date(row.minute_block).getTime() + MINUTE_MS : 0,
      row?.day_block ? new Date(row.day_block).getTime() + DAY_MS : 0,
    ];
    const at = Math.max(...blocks);
    if (at > now.getTime()) return new Date(at);
    await tx.execute(
      sql`insert into integrations.provider_calls (provider, organisation, at) values (${provider}, ${organisation}, ${now})`,
    );
    return null;
  });
}
