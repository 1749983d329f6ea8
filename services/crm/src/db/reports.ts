import { londonDayStart, type DbOrTx } from '@countinghouse/kit';
import type { SubscriptionStatus } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';

/** Clients registered in the London-day range [from, to], counted and summed by package and status. */
export async function clientsByPackageAndStatus(db: DbOrTx, from: string, to: string) {
  // clients_registration_date_idx serves the range; the same condition as the list's registered_from/to.
  const res = await db.execute<{ package_name: string | null; status: SubscriptionStatus; n: string; fees: string }>(sql`
        select c.package_name, c.subscription_status as status, count(*) as n, coalesce(sum(c.monthly_fee), 0) as fees
        from crm.clients c
        where c.registration_date >= ${londonDayStart(from)} and c.registration_date < ${londonDayStart(to, 1)}
        group by 1, 2`);
  return res.rows;
}

/** Leads created in the London-day range [from, to], counted by source and stage. */
export async function leadsBySourceAndStage(db: DbOrTx, from: string, to: string) {
  // leads_created_at_idx serves the range; the same condition as the list's created_from/to.
  const res = await db.execute<{ source: string | null; stage: string; n: string }>(sql`
        select l.source, l.stage, count(*) as n
        from crm.leads l
        where l.created_at >= ${londonDayStart(from)} and l.created_at < ${londonDayStart(to, 1)}
        group by 1, 2`);
  return res.rows;
}
