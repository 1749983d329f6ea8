import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BenchContext, ADMIN, VERIFY_PATH, bearer, expectVerifyOk, gatewaySrc, signIn, type Target } from '../lib/context.js';
import { check, cpuPerRequestUs, disagreement, totalCpuPerRequestUs, type Row } from '../lib/report.js';
import type { Section } from '../lib/section.js';

/**
 * (e) All-in-one mode: the verify route through the in-process gateway (composeAllInOne) against the
 * identity plugin served alone. Same runtime, same pool, same database setup; one server at a time.
 */
export const allInOneSection: Section = {
  name: 'all-in-one',
  title: 'All-in-one mode: in-process gateway vs the identity plugin alone (verify route)',
  description: '(e) composeAllInOne vs createApp + identityPlugin, both in-process bus/jobs, pool 20',
  async run(ctx, scope) {
    const pgEnv = await ctx.infra.ensure('postgres');
    const variants = [
      { key: 'e1', mode: 'plugin', label: 'identity plugin alone (createApp)' },
      { key: 'e2', mode: 'gateway', label: 'all-in-one: gateway + plugin in-process' },
    ] as const;
    // both servers run side by side (idle, the other costs little) so their rounds can interleave
    const targets: Target[] = [];
    for (const v of variants) {
      const databaseUrl = await scope.database(pgEnv.DATABASE_URL!, `aio_${v.mode}`);
      const server = await scope.spawn({
        name: `in-process-${v.mode}`,
        script: 'bench/servers/in-process.ts',
        env: {
          BENCH_MODE: v.mode,
          BENCH_COMPOSE_MODULE: pathToFileURL(join(gatewaySrc(), 'compose.ts')).href,
          DATABASE_URL: databaseUrl,
          JWT_PUBLIC_KEY: BenchContext.pemEnv(ctx.keys.publicKeyPem),
          JWT_PRIVATE_KEY: BenchContext.pemEnv(ctx.keys.privateKeyPem),
          ADMIN_USERNAME: ADMIN.username,
          ADMIN_PASSWORD: ADMIN.password,
          LOG_LEVEL: 'warn',
        },
      });
      const token = await signIn(server.url);
      const url = server.url + VERIFY_PATH;
      await expectVerifyOk(url, token);
      targets.push({ key: v.key, label: v.label, url, headers: bearer(token) });
    }
    const rows = await ctx.compare(targets);
    const [plugin, gateway] = rows as [Row, Row];
    const cost = (1 - gateway.result.rps / plugin.result.rps) * 100;
    const costFromCpu = (1 - totalCpuPerRequestUs(plugin) / totalCpuPerRequestUs(gateway)) * 100;
    return {
      rows,
      notes: disagreement('gateway cost', cost, costFromCpu, 10, 'pct'),
      checks: [
        check('in-process gateway cost: 1 - (e2)/(e1)', 'pct', [plugin, gateway], cost, { op: '<', target: 10 }),
        check('added p50 (e2) - (e1) at max load', 'ms-added', [plugin, gateway], gateway.result.latency.p50 - plugin.result.latency.p50),
        // steadier than req/s on a shared machine: CPU time per request (see the gateway section)
        check('gateway cost estimated from total CPU per request', 'pct', [plugin, gateway], costFromCpu),
        check(
          'server CPU per request, (e2) vs (e1)',
          'pct',
          [plugin, gateway],
          (cpuPerRequestUs(gateway, 'in-process-gateway') / cpuPerRequestUs(plugin, 'in-process-plugin') - 1) * 100,
        ),
      ],
    };
  },
};
