import { sql } from 'drizzle-orm';
import type { Db } from '@countinghouse/kit';

export interface Purged {
  adminSessions: number;
  userSessions: number;
  processedEvents: number;
  outbox: number;
}

/**
 * Delete what identity no longer needs, older than the cut-off: sign-in sessions that expired or were
 * revoked (they hold an IP address and browser: personal data, UK GDPR Art. 5(1)(e) storage
 * limitation), processed-event ids (redelivery only happens within the bus's retention, days) and
 * outbox rows already published. One transaction: all or nothing.
 */
export async function purgeExpired(db: Db, cutOff: Date): Promise<Purged> {
  return db.transaction(async (tx) => {
    const count = async (q: ReturnType<typeof sql>) => (await tx.execute(q)).rowCount ?? 0;
    const iso = cutOff.toISOString();
    return {
      adminSessions: await count(
        sql`delete from identity.admin_sessions where expires_at < ${iso}::timestamptz or revoked_at < ${iso}::timestamptz`,
      ),
      userSessions: await count(
        sql`delete from identity.user_sessions where expires_at < ${iso}::timestamptz or revoked_at < ${iso}::timestamptz`,
      ),
      processedEvents: await count(sql`delete from identity.processed_events where processed_at < ${iso}::timestamptz`),
      outbox: await count(sql`delete from identity.outbox where published_at < ${iso}::timestamptz`),
    };
  });
}
