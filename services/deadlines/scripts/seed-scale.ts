/**
 * Scale seed for the deadlines list: N clients (20,000 by default) in the client directory, each with
 * a tax profile and the deadlines the engine computes for it, as crm's events and the profile form
 * would leave them. Dates are relative to today, so the list's windows hold realistic numbers.
 *
 *   DATABASE_URL=postgres://... node --import tsx services/deadlines/scripts/seed-scale.ts [clients]
 *
 * Applies the deadlines migrations first. Adds to what is there.
 */
import { createPool, runMigrations } from '@countinghouse/kit';
import type { TaxProfileInput } from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { londonToday } from '../src/domain/dates.js';
import { computeDeadlines } from '../src/domain/engine.js';
import { engineWindow } from '../src/domain/status.js';
import { migrationsFolder, SCHEMA } from '../src/plugin.js';

/** A fixed pseudo-random sequence, so two seeds give the same practice (the scale seeds share it). */
export function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export const SCALE_ACCOUNTANTS = Array.from({ length: 12 }, (_, i) => `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`);

function profileFor(r: () => number, i: number): { profile: TaxProfileInput; businessType: string } {
  const kind = r();
  const vat = r() < 0.5 ? (['stagger_1', 'stagger_2', 'stagger_3', 'monthly'] as const)[Math.floor(r() * 4)]! : 'none';
  const base: TaxProfileInput = {
    company_number: null,
    company_type: 'private',
    incorporation_date: null,
    ard_day: null,
    ard_month: null,
    last_accounts_made_up_to: null,
    confirmation_review_date: null,
    vat_scheme: vat,
    vat_annual_end_month: null,
    paye_scheme: false,
    paye_payday: null,
    sa_taxpayers: [],
  };
  if (kind < 0.6) {
    const month = 1 + Math.floor(r() * 12);
    const year = 2010 + Math.floor(r() * 14);
    return {
      businessType: 'limited',
      profile: {
        ...base,
        company_number: String(10_000_000 + i).slice(-8),
        incorporation_date: `${year}-${String(month).padStart(2, '0')}-15`,
        ard_day: 31,
        ard_month: month,
        paye_scheme: r() < 0.4,
        paye_payday: 25,
        sa_taxpayers: [{ id: 'd1', name: `Director ${i}`, role: 'director', paper_return: false, qualifying_income: null }],
      },
    };
  }
  return {
    businessType: 'sole_trader',
    profile: {
      ...base,
      sa_taxpayers: [
        {
          id: 's1',
          name: `Trader ${i}`,
          role: r() < 0.7 ? 'sole_trader' : 'landlord',
          paper_return: r() < 0.05,
          qualifying_income: Math.floor(r() * 90_000),
        },
      ],
    },
  };
}

export async function seedDeadlinesScale(pool: pg.Pool, clients = 20_000): Promise<{ ms: number; clients: number; deadlines: number }> {
  const t0 = Date.now();
  await runMigrations(pool, SCHEMA, migrationsFolder);
  const r = rng(13);
  const today = londonToday();
  const window = engineWindow(today);
  let total = 0;
  const BATCH = 1000;
  for (let start = 0; start < clients; start += BATCH) {
    const dir: unknown[][] = [[], [], [], [], []];
    const prof: unknown[][] = [[], [], []];
    const dl: unknown[][] = [[], [], [], [], [], [], [], []];
    for (let i = start; i < Math.min(clients, start + BATCH); i++) {
      const id = randomUUID();
      const { profile, businessType } = profileFor(r, i);
      const accountant = r() < 0.9 ? SCALE_ACCOUNTANTS[Math.floor(r() * SCALE_ACCOUNTANTS.length)]! : null;
      dir[0]!.push(id);
      dir[1]!.push(`Client ${i} ${businessType === 'limited' ? 'Ltd' : 'Trading'}`);
      dir[2]!.push(businessType);
      dir[3]!.push(accountant);
      dir[4]!.push(randomUUID());
      prof[0]!.push(id);
      prof[1]!.push(JSON.stringify(profile));
      prof[2]!.push(profile.company_number);
      for (const d of computeDeadlines({ profile, company: null, ...window })) {
        dl[0]!.push(id);
        dl[1]!.push(d.key);
        dl[2]!.push(d.kind);
        dl[3]!.push(d.period);
        dl[4]!.push(d.periodEnd);
        dl[5]!.push(d.dueOn);
        dl[6]!.push(d.source);
        // A realistic share of the past ones already done.
        dl[7]!.push(d.dueOn < today && r() < 0.8 ? new Date().toISOString() : null);
        total++;
      }
    }
    await pool.query(
      `insert into deadlines.client_directory (client_id, company_name, business_type, assigned_accountant_id, user_id, subscription_status, source_at)
       select c, n, b, a, u, 'active', now() from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) as t(c, n, b, a, u)`,
      dir,
    );
    await pool.query(
      `insert into deadlines.tax_profiles (client_id, profile, company_number) select c, p::jsonb, n from unnest($1::text[], $2::text[], $3::text[]) as t(c, p, n)`,
      prof,
    );
    await pool.query(
      `insert into deadlines.deadlines (client_id, key, kind, period, period_end, due_on, source, done_at, done_by_name, assigned_accountant_id)
       select t.c, k, kd, p, pe::date, d::date, s, da::timestamptz, case when da is null then null else 'Seed' end, cd.assigned_accountant_id
       from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) as t(c, k, kd, p, pe, d, s, da)
       join deadlines.client_directory cd on cd.client_id = t.c`,
      dl,
    );
  }
  await pool.query('analyze deadlines.client_directory; analyze deadlines.tax_profiles; analyze deadlines.deadlines');
  return { ms: Date.now() - t0, clients, deadlines: total };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required');
  const pool = createPool(url, 2);
  try {
    const r = await seedDeadlinesScale(pool, Number(process.argv[2] ?? 20_000));
    process.stdout.write(`seeded ${r.clients} clients, ${r.deadlines} deadlines in ${(r.ms / 1000).toFixed(1)} s\n`);
  } finally {
    await pool.end();
  }
}
