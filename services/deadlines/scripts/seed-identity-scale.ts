/**
 * Scale seed for the identity verification view (issue #30): N clients (20,000 by default) in the client
 * directory with 3 people each (60,000) in deadlines.identity_people, as refreshes would leave them: about
 * 40 % verified, 35 % with Companies House's due date, 15 % derived by the rules, 10 % not yet known; due
 * dates spread from 120 days ago to 300 days ahead of today.
 *
 *   DATABASE_URL=postgres://... node --import tsx services/deadlines/scripts/seed-identity-scale.ts [clients]
 *
 * Applies the deadlines migrations first. Adds to what is there.
 */
import { createPool, runMigrations } from '@countinghouse/kit';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { addDays, londonToday } from '../src/domain/dates.js';
import { migrationsFolder, SCHEMA } from '../src/plugin.js';
import { rng, SCALE_ACCOUNTANTS } from './seed-scale.js';

export async function seedIdentityScale(
  pool: pg.Pool,
  clients = 20_000,
  perClient = 3,
): Promise<{ ms: number; clients: number; people: number }> {
  const t0 = Date.now();
  await runMigrations(pool, SCHEMA, migrationsFolder);
  const r = rng(30);
  const today = londonToday();
  let people = 0;
  const BATCH = 2000;
  for (let start = 0; start < clients; start += BATCH) {
    const dir: unknown[][] = [[], [], [], []];
    const ppl: unknown[][] = Array.from({ length: 12 }, () => []);
    for (let i = start; i < Math.min(clients, start + BATCH); i++) {
      const id = randomUUID();
      const accountant = r() < 0.9 ? SCALE_ACCOUNTANTS[Math.floor(r() * SCALE_ACCOUNTANTS.length)]! : null;
      dir[0]!.push(id);
      dir[1]!.push(`Client ${i} Ltd`);
      dir[2]!.push(accountant);
      dir[3]!.push(randomUUID());
      for (let k = 0; k < perClient; k++) {
        const kind = k === 0 ? 'director' : r() < 0.85 ? 'psc' : 'relevant_legal_entity';
        const name = kind === 'relevant_legal_entity' ? `HOLDINGS ${i}-${k} LIMITED` : `PERSON${k}, Client ${i}`;
        const x = r();
        const due = addDays(today, Math.floor(r() * 420) - 120);
        const verified = x < 0.4;
        const known = x < 0.9;
        ppl[0]!.push(id);
        ppl[1]!.push(`${kind === 'director' ? 'officer:director:' : 'psc:'}${name}`);
        ppl[2]!.push(k);
        ppl[3]!.push(name);
        ppl[4]!.push(kind);
        ppl[5]!.push(verified ? addDays(today, -Math.floor(r() * 300)) : null);
        ppl[6]!.push(verified ? (r() < 0.3 ? 'LEDGER ACSP LIMITED' : null) : null);
        ppl[7]!.push(verified ? 'companies_house' : null);
        ppl[8]!.push(!verified && known ? due : null);
        ppl[9]!.push(!verified && known ? (x < 0.75 ? 'companies_house' : 'rule') : null);
        ppl[10]!.push(!verified && known && x >= 0.75 ? 'new_psc_14_days' : null);
        ppl[11]!.push(accountant);
        people++;
      }
    }
    await pool.query(
      `insert into deadlines.client_directory (client_id, company_name, business_type, assigned_accountant_id, user_id, subscription_status, source_at)
       select c, n, 'limited', a, u, 'active', now() from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as t(c, n, a, u)`,
      dir,
    );
    await pool.query(
      `insert into deadlines.identity_people (client_id, person_key, position, name, person_kind, verified_on, verified_by, verified_source,
         due_on, due_source, due_rule, assigned_accountant_id)
       select c, k, p, n, pk, v::date, vb, vs, d::date, ds, dr, a
       from unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[])
         as t(c, k, p, n, pk, v, vb, vs, d, ds, dr, a)`,
      ppl,
    );
  }
  await pool.query('analyze deadlines.client_directory; analyze deadlines.identity_people');
  return { ms: Date.now() - t0, clients, people };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required');
  const pool = createPool(url, 2);
  try {
    const s = await seedIdentityScale(pool, Number(process.argv[2] ?? 20_000));
    process.stdout.write(`seeded ${s.clients} clients, ${s.people} people in ${(s.ms / 1000).toFixed(1)} s\n`);
  } finally {
    await pool.end();
  }
}
