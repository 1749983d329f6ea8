import { createPool } from '@countinghouse/kit';
import { seedJobsScale } from '../../services/deadlines/scripts/seed-jobs-scale.js';
import { SCALE_ACCOUNTANTS } from '../../services/deadlines/scripts/seed-scale.js';
import { check } from '../lib/report.js';
import { startScaleServer } from '../lib/scale-server.js';
import type { Section } from '../lib/section.js';

const RATE = 50;
const CLIENTS = 20_000;
const JOBS_PER_CLIENT = 5;

/**
 * Client jobs (issue #29) at 20,000 clients with 100,000 jobs (services/deadlines/scripts/seed-jobs-scale.ts):
 * the board and the list with their filters through the all-in-one gateway (bearer admin token), each at a
 * steady RATE req/s; aim p99 < 100 ms.
 */
export const jobsSection: Section = {
  name: 'jobs',
  title: `jobs at ${CLIENTS.toLocaleString('en-GB')} clients, ${(CLIENTS * JOBS_PER_CLIENT).toLocaleString('en-GB')} jobs: the board and the list through the gateway (${RATE} req/s each)`,
  description: '(j) jobs board per kind and assignee, list per filter; aim p99 < 100 ms',
  async run(ctx, scope) {
    const pgEnv = await ctx.infra.ensure('postgres');
    const databaseUrl = await scope.database(pgEnv.DATABASE_URL!, 'jobs');
    ctx.log(`jobs: seeding ${CLIENTS} clients and ${CLIENTS * JOBS_PER_CLIENT} jobs`);
    const pool = createPool(databaseUrl, 2);
    let clientId: string;
    try {
      const seeded = await seedJobsScale(pool, CLIENTS, JOBS_PER_CLIENT);
      // As autovacuum leaves a table of settled jobs: its visibility map set, so the board's counts per stage
      // read the index alone. A vacuum just after the bulk insert marks only part of it (the inserts' XIDs
      // are not yet behind every horizon), so vacuum until nearly every page is all-visible (bounded).
      for (let i = 0; i < 20; i++) {
        await pool.query('vacuum (analyze) deadlines.jobs');
        const v = await pool.query(
          `select relallvisible::float / greatest(relpages, 1) as f from pg_class where oid = 'deadlines.jobs'::regclass`,
        );
        ctx.log(`jobs: ${Math.round(v.rows[0].f * 100)} % of the table's pages all-visible`);
        if (v.rows[0].f >= 0.95) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      clientId = (await pool.query(`select client_id from deadlines.client_directory order by client_id offset 777 limit 1`)).rows[0]
        .client_id;
      ctx.log(`jobs: seeded ${seeded.jobs} jobs in ${(seeded.ms / 1000).toFixed(1)} s`);
    } finally {
      await pool.end();
    }
    const { server, headers } = await startScaleServer(ctx, scope, { name: 'jobs-all-in-one', databaseUrl });
    const base = '/api/deadlines/jobs';
    const someone = SCALE_ACCOUNTANTS[3];
    const queries: Array<{ key: string; label: string; path: string }> = [
      { key: 'j1', label: 'board: year-end accounts', path: `${base}/board?kind=year_end_accounts` },
      { key: 'j2', label: 'board: VAT returns, one assignee', path: `${base}/board?kind=vat_return&assignee_id=${someone}` },
      { key: 'j3', label: 'list: open (the default)', path: base },
      { key: 'j4', label: 'list: overdue', path: `${base}?overdue=true` },
      { key: 'j5', label: 'list: one assignee, next 30 days', path: `${base}?assignee_id=${someone}&due_to=${addDaysIso(30)}` },
      { key: 'j6', label: 'list: waiting on the client', path: `${base}?waiting_on_client=true` },
      { key: 'j7', label: 'list: kind and stage, page 5', path: `${base}?kind=year_end_accounts&stage=Review&page=5` },
      { key: 'j8', label: 'list: one client, every status', path: `${base}?client_id=${clientId}&status=all` },
    ];
    const rows = await ctx.measurePacedQueries(server.url, queries, headers, RATE);
    return {
      rows,
      checks: rows.map((r) =>
        check(`p99 (${r.key}) ${r.label.replace(' @paced', '')}`, 'ms', [r], r.result.latency.p99, { op: '<', target: 100 }),
      ),
      notes: [
        `Each query at ${RATE} req/s, open loop; the board reads each stage's first cards and counts per stage.`,
        "Open jobs walk the partial indexes jobs_open_kind_stage_due_idx and jobs_open_due_idx; an assignee's board jobs_open_assignee_kind_stage_due_idx, an assignee's list jobs_assignee_due_idx; waiting on the client jobs_open_waiting_due_idx.",
      ],
    };
  },
};

function addDaysIso(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}
