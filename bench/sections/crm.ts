import { createPool } from '@countinghouse/kit';
import { seedScale } from '../../services/crm/scripts/seed-scale.js';
import { check } from '../lib/report.js';
import { startScaleServer } from '../lib/scale-server.js';
import type { Section } from '../lib/section.js';

/** A busy back office: a few people each clicking filters, well under what 2 cores can serve. */
const RATE = 50;

/**
 * crm at scale: 200,000 clients and 200,000 leads (services/crm/scripts/seed-scale.ts), then the
 * client list with search and each filter, the lead search and the counts, through the all-in-one
 * gateway (composeAllInOne, bearer admin token), each at a steady RATE req/s, p50/p99 per query.
 */
export const crmSection: Section = {
  name: 'crm',
  title: `crm at 200,000 clients + 200,000 leads: lists, search, filters and counts through the gateway (${RATE} req/s each)`,
  description: '(f) client list with search and each filter, lead search, stats, sidebar counts; aim p99 < 50 ms',
  async run(ctx, scope) {
    const pgEnv = await ctx.infra.ensure('postgres');
    const databaseUrl = await scope.database(pgEnv.DATABASE_URL!, 'crm');
    ctx.log('crm: seeding 200,000 clients and 200,000 leads (about a minute)');
    const pool = createPool(databaseUrl, 2);
    try {
      const seeded = await seedScale(pool);
      ctx.log(`crm: seeded in ${(seeded.ms / 1000).toFixed(1)} s`);
    } finally {
      await pool.end();
    }
    const { server, headers } = await startScaleServer(ctx, scope, { name: 'crm-all-in-one', databaseUrl });
    const queries: Array<{ key: string; label: string; path: string }> = [
      { key: 'f1', label: 'clients, no filter', path: '/api/crm/clients' },
      { key: 'f2', label: 'clients, search "smith"', path: '/api/crm/clients?search=smith' },
      { key: 'f3', label: 'clients, search "123456" (rare)', path: '/api/crm/clients?search=123456' },
      { key: 'f4', label: 'clients, status=active', path: '/api/crm/clients?status=active' },
      { key: 'f5', label: 'clients, status=cancelled', path: '/api/crm/clients?status=cancelled' },
      { key: 'f6', label: 'clients, package=Starter', path: '/api/crm/clients?package=Starter' },
      {
        key: 'f7',
        label: 'clients, package=Enterprise, by registration',
        path: '/api/crm/clients?package=Enterprise&sort=registration_date',
      },
      { key: 'f8', label: 'clients, search + status + package', path: '/api/crm/clients?search=bakery&status=active&package=Scale' },
      { key: 'f9', label: 'leads, search "patel"', path: '/api/crm/leads?search=patel' },
      { key: 'f10', label: 'stats (the cards)', path: '/api/crm/stats' },
      { key: 'f11', label: 'sidebar counts', path: '/api/crm/sidebar-counts' },
      { key: 'f12', label: 'header search "bakery"', path: '/api/crm/search?q=bakery' },
    ];
    const rows = await ctx.measurePacedQueries(server.url, queries, headers, RATE);
    return {
      rows,
      checks: rows.map((r) =>
        check(`p99 (${r.key}) ${r.label.replace(' @paced', '')}`, 'ms', [r], r.result.latency.p99, { op: '<', target: 50 }),
      ),
      notes: [
        `Each query at ${RATE} req/s, open loop, after ${Math.min(2, ctx.settings.warmupS)} s of warm-up; plans in docs/perf/crm-plans.md.`,
        'Totals without a filter, or with the status filter alone, and the stats come from trigger-kept counters (crm.client_totals, crm.lead_totals).',
      ],
    };
  },
};
