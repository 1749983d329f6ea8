/**
 * Scale seed for client jobs (issue #29): N clients (20,000 by default) in the client directory with 5
 * jobs each (100,000) in deadlines.jobs, as the daily run and the practice would leave them: every kind,
 * spread over the template's stages, about 85 % open, due from 60 days ago to 300 days ahead of today,
 * assigned to one of the scale accountants (10 % unassigned), 8 % waiting on the client.
 *
 *   DATABASE_URL=postgres://... node --import tsx services/deadlines/scripts/seed-jobs-scale.ts [clients]
 *
 * Applies the deadlines migrations first. Adds to what is there.
 */
import { createPool, runMigrations } from '@countinghouse/kit';
import { FILED_STAGE, JOB_KIND_VALUES, jobKindLabel } from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { addDays, londonToday } from '../src/domain/dates.js';
import { DEFAULT_TEMPLATES } from '../src/domain/jobs.js';
import { migrationsFolder, SCHEMA } from '../src/plugin.js';
import { rng, SCALE_ACCOUNTANTS } from './seed-scale.js';

export async function seedJobsScale(
  pool: pg.Pool,
  clients = 20_000,
  perClient = 5,
): Promise<{ ms: number; clients: number; jobs: number }> {
  const t0 = Date.now();
  await runMigrations(pool, SCHEMA, migrationsFolder);
  const r = rng(29);
  const today = londonToday();
  let jobs = 0;
  const BATCH = 2000;
  for (let start = 0; start < clients; start += BATCH) {
    const dir: unknown[][] = [[], [], [], []];
    const js: unknown[][] = Array.from({ length: 13 }, () => []);
    for (let i = start; i < Math.min(clients, start + BATCH); i++) {
      const id = randomUUID();
      const accountant = r() < 0.9 ? SCALE_ACCOUNTANTS[Math.floor(r() * SCALE_ACCOUNTANTS.length)]! : null;
      dir[0]!.push(id);
      dir[1]!.push(`Client ${i} Ltd`);
      dir[2]!.push(accountant);
      dir[3]!.push(randomUUID());
      for (let k = 0; k < perClient; k++) {
        const kind = JOB_KIND_VALUES[Math.floor(r() * JOB_KIND_VALUES.length)]!;
        const stages = DEFAULT_TEMPLATES[kind].stages.map((s) => s.name);
        const filed = r() < 0.15;
        const filedAt = stages.includes(FILED_STAGE) ? stages.indexOf(FILED_STAGE) : stages.length - 1;
        const stageIndex = filed ? filedAt : Math.floor(r() * filedAt);
        const due = addDays(today, Math.floor(r() * 360) - 60);
        js[0]!.push(id);
        js[1]!.push(kind);
        js[2]!.push(`${jobKindLabel(kind)} ${i}-${k}`);
        js[3]!.push(JSON.stringify(stages));
        js[4]!.push(stageIndex);
        js[5]!.push(stages[stageIndex]);
        js[6]!.push(filed ? 'filed' : 'open');
        js[7]!.push(due);
        js[8]!.push(accountant);
        js[9]!.push(DEFAULT_TEMPLATES[kind].reviewer_role);
        js[10]!.push(DEFAULT_TEMPLATES[kind].budget_minutes);
        js[11]!.push(Math.floor(r() * DEFAULT_TEMPLATES[kind].budget_minutes * 1.2));
        js[12]!.push(!filed && r() < 0.08);
        jobs++;
      }
    }
    await pool.query(
      `insert into deadlines.client_directory (client_id, company_name, business_type, assigned_accountant_id, user_id, subscription_status, source_at)
       select c, n, 'limited', a, u, 'active', now() from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as t(c, n, a, u)`,
      dir,
    );
    await pool.query(
      `insert into deadlines.jobs (client_id, kind, title, stages, stage_index, stage, status, checklist, due_on, assignee_id,
         reviewer_role, budget_minutes, used_minutes, waiting_on_client)
       select c, k, t, s::jsonb, si, st, stt, '[]'::jsonb, d::date, a, rr, b, u, w
       from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[],
         $10::text[], $11::int[], $12::int[], $13::bool[]) as x(c, k, t, s, si, st, stt, d, a, rr, b, u, w)`,
      js,
    );
  }
  await pool.query('analyze deadlines.client_directory; analyze deadlines.jobs');
  return { ms: Date.now() - t0, clients, jobs };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required');
  const pool = createPool(url, 2);
  try {
    const s = await seedJobsScale(pool, Number(process.argv[2] ?? 20_000));
    process.stdout.write(`seeded ${s.clients} clients, ${s.jobs} jobs in ${(s.ms / 1000).toFixed(1)} s\n`);
  } finally {
    await pool.end();
  }
}
