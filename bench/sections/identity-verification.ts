import { createPool } from '@countinghouse/kit';
import { seedIdentityScale } from '../../services/deadlines/scripts/seed-identity-scale.js';
import { SCALE_ACCOUNTANTS } from '../../services/deadlines/scripts/seed-scale.js';
import { check } from '../lib/report.js';
import { startScaleServer } from '../lib/scale-server.js';
import type { Section } from '../lib/section.js';

const RATE = 50;
const CLIENTS = 20_000;
const PEOPLE_PER_CLIENT = 3;

/**
 * The "Identity verification" view (issue #30) at 20,000 clients with 60,000 directors and PSCs
 * (services/deadlines/scripts/seed-identity-scale.ts), through the all-in-one gateway (bearer admin
 * token), each filter at a steady RATE req/s; aim p99 < 100 ms.
 */
export const identityVerificationSection: Section = {
  name: 'identity-verification',
  title: `identity verification at ${CLIENTS.toLocaleString('en-GB')} clients, ${(CLIENTS * PEOPLE_PER_CLIENT).toLocaleString('en-GB')} people: the view and its filters through the gateway (${RATE} req/s each)`,
  description: '(v) identity verification view per filter, accountant and client; aim p99 < 100 ms',
  async run(ctx, scope) {
    const pgEnv = await ctx.infra.ensure('postgres');
    const databaseUrl = await scope.database(pgEnv.DATABASE_URL!, 'idv');
    ctx.log(`identity-verification: seeding ${CLIENTS} clients and ${CLIENTS * PEOPLE_PER_CLIENT} people`);
    const pool = createPool(databaseUrl, 2);
    let clientId: string;
    try {
      const seeded = await seedIdentityScale(pool, CLIENTS, PEOPLE_PER_CLIENT);
      await pool.query('vacuum analyze deadlines.identity_people');
      clientId = (await pool.query(`select client_id from deadlines.client_directory order by client_id offset 777 limit 1`)).rows[0]
        .client_id;
      ctx.log(`identity-verification: seeded ${seeded.people} people in ${(seeded.ms / 1000).toFixed(1)} s`);
    } finally {
      await pool.end();
    }
    const { server, headers } = await startScaleServer(ctx, scope, { name: 'identity-verification-all-in-one', databaseUrl });
    const base = '/api/deadlines/identity-verification';
    const queries: Array<{ key: string; label: string; path: string }> = [
      { key: 'v1', label: 'not verified (the default)', path: base },
      { key: 'v2', label: 'overdue', path: `${base}?filter=overdue` },
      { key: 'v3', label: 'due in 30 days', path: `${base}?filter=due_30` },
      { key: 'v4', label: 'not yet known', path: `${base}?filter=unknown` },
      { key: 'v5', label: 'one accountant, not verified', path: `${base}?assignee_id=${SCALE_ACCOUNTANTS[2]}` },
      { key: 'v6', label: 'everyone, page 20', path: `${base}?filter=all&page=20` },
      { key: 'v7', label: 'one client, everyone', path: `${base}?filter=all&client_id=${clientId}` },
    ];
    const rows = await ctx.measurePacedQueries(server.url, queries, headers, RATE);
    return {
      rows,
      checks: rows.map((r) =>
        check(`p99 (${r.key}) ${r.label.replace(' @paced', '')}`, 'ms', [r], r.result.latency.p99, { op: '<', target: 100 }),
      ),
      notes: [
        `Each filter at ${RATE} req/s, open loop; plans in docs/perf/identity-verification.md.`,
        'Pages walk identity_people_open_due_idx (not verified, by due date) or the accountant index and join the directory by key; counts stop at 10,000.',
      ],
    };
  },
};
