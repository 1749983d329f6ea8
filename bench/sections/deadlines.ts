import { createPool } from '@countinghouse/kit';
import { SCALE_ACCOUNTANTS, seedDeadlinesScale } from '../../services/deadlines/scripts/seed-scale.js';
import { check } from '../lib/report.js';
import { startScaleServer } from '../lib/scale-server.js';
import type { Section } from '../lib/section.js';

/** A busy back office: a few people each clicking filters. */
const RATE = 50;
const CLIENTS = 20_000;

/**
 * The deadlines page at 20,000 clients (services/deadlines/scripts/seed-scale.ts: each client's
 * deadlines from the engine, about 360,000 rows), through the all-in-one gateway (bearer admin
 * token), each query at a steady RATE req/s; aim p99 < 100 ms.
 */
export const deadlinesSection: Section = {
  name: 'deadlines',
  title: `deadlines at ${CLIENTS.toLocaleString('en-GB')} clients: the /admin/deadlines list and its filters through the gateway (${RATE} req/s each)`,
  description: '(g) deadline list per window, kind, assignee and client; aim p99 < 100 ms',
  async run(ctx, scope) {
    const pgEnv = await ctx.infra.ensure('postgres');
    const databaseUrl = await scope.database(pgEnv.DATABASE_URL!, 'deadlines');
    ctx.log(`deadlines: seeding ${CLIENTS} clients and their deadlines (a minute or two)`);
    const pool = createPool(databaseUrl, 2);
    let clientId: string;
    try {
      const seeded = await seedDeadlinesScale(pool, CLIENTS);
      await pool.query('vacuum analyze deadlines.deadlines');
      clientId = (await pool.query(`select client_id from deadlines.client_directory order by client_id offset 777 limit 1`)).rows[0]
        .client_id;
      ctx.log(`deadlines: seeded ${seeded.deadlines} deadlines in ${(seeded.ms / 1000).toFixed(1)} s`);
    } finally {
      await pool.end();
    }
    const { server, headers } = await startScaleServer(ctx, scope, { name: 'deadlines-all-in-one', databaseUrl });
    const queries: Array<{ key: string; label: string; path: string }> = [
      { key: 'g1', label: 'next 90 days (the default)', path: '/api/deadlines?window=90' },
      { key: 'g2', label: 'next 30 days', path: '/api/deadlines?window=30' },
      { key: 'g3', label: 'overdue', path: '/api/deadlines?window=overdue' },
      { key: 'g4', label: 'kind=vat_return, 90 days', path: '/api/deadlines?window=90&kind=vat_return' },
      { key: 'g5', label: 'one accountant, 90 days', path: `/api/deadlines?window=90&assignee_id=${SCALE_ACCOUNTANTS[2]}` },
      { key: 'g6', label: 'one client, all open', path: `/api/deadlines?window=all&client_id=${clientId}` },
      { key: 'g7', label: 'next 90 days, page 20', path: '/api/deadlines?window=90&page=20' },
    ];
    const rows = await ctx.measurePacedQueries(server.url, queries, headers, RATE);
    return {
      rows,
      checks: rows.map((r) =>
        check(`p99 (${r.key}) ${r.label.replace(' @paced', '')}`, 'ms', [r], r.result.latency.p99, { op: '<', target: 100 }),
      ),
      notes: [
        `Each query at ${RATE} req/s, open loop; plans in docs/perf/deadlines.md.`,
        'Counts stop at 10,000 (total_capped): every filter is on the deadline row itself, so the count reads one partial index.',
      ],
    };
  },
};
