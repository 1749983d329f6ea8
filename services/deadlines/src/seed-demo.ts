import type { Db } from '@countinghouse/kit';
import { TaxProfileDefaults, type TaxProfileInput, type VatScheme } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { saveProfile } from './db/queries.js';
import { addDays } from './domain/dates.js';
import { recomputeClient } from './use-cases/recompute-client.js';

/** What the deadlines seed needs of each demo client (crm's demo list, plain data). */
export interface DemoTaxClient {
  clientId: string;
  companyName: string;
  contactName: string | null;
  type: 'sole_trader' | 'partnership' | 'limited';
  employees: number;
  /** The day the practice took the client on (its registration). */
  since: string;
  cancelled: boolean;
}

const VAT: VatScheme[] = ['stagger_1', 'stagger_2', 'stagger_3', 'none'];

/** A believable tax profile per kind of client; review dates relative to today so some are overdue on first start. */
export function demoProfile(c: DemoTaxClient, i: number, today: string): TaxProfileInput {
  const base: TaxProfileInput = { ...TaxProfileDefaults, engagement_start_on: c.since };
  if (c.type === 'limited')
    return {
      ...base,
      ard_day: 31,
      ard_month: i % 2 === 0 ? 3 : 12,
      // One in three overdue by a week, the others coming in the next weeks.
      confirmation_review_date: addDays(today, i % 3 === 0 ? -21 : (i % 3) * 5 - 8),
      vat_scheme: VAT[i % VAT.length]!,
      paye_scheme: c.employees > 0,
      paye_payday: c.employees > 0 ? 28 : null,
    };
  const role = c.type === 'partnership' ? 'partner' : 'sole_trader';
  return {
    ...base,
    vat_scheme: i % 2 === 0 ? 'stagger_1' : 'none',
    sa_taxpayers: [{ id: 'p1', name: c.contactName ?? c.companyName, role, paper_return: false, qualifying_income: null }],
  };
}

/**
 * Tax profiles for most demo clients (all but cancelled ones and every fifth), with their deadlines
 * computed at once, so deadlines and My work look like a real practice on first start. Skipped when any
 * profile exists.
 */
export async function seedDeadlinesDemo(db: Db, clients: DemoTaxClient[], today: string): Promise<{ seeded: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('deadlines-demo-seed'))`);
    const { rows } = await tx.execute<{ n: number }>(sql`select count(*)::int as n from deadlines.tax_profiles`);
    if ((rows[0]?.n ?? 0) > 0) return { seeded: 0 };
    let seeded = 0;
    for (const [i, c] of clients.entries()) {
      if (c.cancelled || i % 5 === 4) continue;
      await saveProfile(tx, c.clientId, demoProfile(c, i, today), null, { id: 'demo', name: 'Demo practice' });
      await recomputeClient(tx, c.clientId, today, 'profile');
      seeded += 1;
    }
    return { seeded };
  });
}
