import { join } from 'node:path';
import { BenchContext, VERIFY_PATH, bearer, expectVerifyOk, gatewaySrc } from '../lib/context.js';
import { REPO_ROOT } from '../lib/proc.js';
import { check, cpuPerRequestUs, disagreement, totalCpuPerRequestUs, type Row } from '../lib/report.js';
import type { Section } from '../lib/section.js';

/**
 * (b) identity called directly, (c) through our gateway (distributed mode: gateway/src/proxy.ts),
 * (d) through nginx (a plain reverse proxy, no auth), all on the same identity process; then the
 * latency the gateway adds at a fixed rate.
 */
export const gatewaySection: Section = {
  name: 'gateway',
  title: 'Distributed mode, verify route (GET /api/identity/admin/session, bearer token, one PostgreSQL read)',
  description: '(b) identity direct, (c) via gateway/src/main.ts, (d) via nginx; added latency at a fixed rate',
  uses: ['identity'],
  async run(ctx, scope) {
    const { server: identity, token } = await ctx.identity();
    const kafka = await ctx.infra.ensure('kafka');
    const script = join(gatewaySrc(), 'main.ts');
    if (process.env.BENCH_GATEWAY_SRC) ctx.log(`gateway: using ${script}`);
    const gateway = await scope.spawn({
      name: 'gateway',
      script,
      env: {
        FRONTEND_DIR: join(REPO_ROOT, 'frontend', 'dist'),
        HOST: '127.0.0.1',
        IDENTITY_URL: identity.url,
        KAFKA_BROKERS: kafka.KAFKA_BROKERS!,
        JWT_PUBLIC_KEY: BenchContext.pemEnv(ctx.keys.publicKeyPem),
        LOG_LEVEL: 'warn',
        SIGN_IN_RATE_LIMIT: '1000000',
      },
    });
    const nginx = await ctx.infra.nginxFor(`127.0.0.1:${identity.port}`);
    const url = {
      b: identity.url + VERIFY_PATH,
      c: gateway.url + VERIFY_PATH,
      d: nginx.NGINX_URL + VERIFY_PATH,
    };
    for (const u of Object.values(url)) await expectVerifyOk(u, token);
    const h = bearer(token);

    const [b, c, d] = (await ctx.compare([
      { key: 'b', label: 'identity direct', url: url.b, headers: h },
      { key: 'c', label: 'via our gateway (distributed)', url: url.c, headers: h },
      { key: 'd', label: 'via nginx', url: url.d, headers: h },
    ])) as [Row, Row, Row];
    const rows: Row[] = [b, c, d];
    const fixed = async (key: string, label: string, go: () => Promise<Row['result']>) => {
      ctx.log(`measuring (${key}) ${label}`);
      const row = { key, label, result: await go() };
      rows.push(row);
      return row;
    };
    const rate = ctx.settings.fixedRate;
    const bPaced = await fixed('b@paced', 'identity direct', () => ctx.loadPaced(url.b, h));
    const cPaced = await fixed('c@paced', 'via our gateway (distributed)', () => ctx.loadPaced(url.c, h));
    const bRate = await fixed('b@ac', 'identity direct', () => ctx.loadAtRate(url.b, h));
    const cRate = await fixed('c@ac', 'via our gateway (distributed)', () => ctx.loadAtRate(url.c, h));

    return {
      rows,
      notes: [
        `@paced: ${rate} requests/s sent evenly (one every ${(1000 / rate).toFixed(1)} ms) by a small raw-socket client; @ac: autocannon overallRate=${rate} ` +
          `over ${ctx.settings.connections} connections, which sends each connection's quota for the second back to back and then idles, ` +
          `so it measures bursts of ${ctx.settings.connections} concurrent requests rather than an even ${rate}/s.`,
        'Distributed mode: identity, gateway and nginx are separate processes; the gateway verifies the token (cached) and proxies with gateway/src/proxy.ts (undici dispatch); nginx only proxies.',
        ...disagreement('(c)/(d)', c.result.rps / d.result.rps, totalCpuPerRequestUs(d) / totalCpuPerRequestUs(c), 0.1, 'ratio'),
      ],
      checks: [
        check('(c)/(d) gateway vs nginx, req/s', 'ratio', [c, d], c.result.rps / d.result.rps, { op: '>=', target: 0.8 }),
        check('(c)/(b) gateway vs direct, req/s', 'ratio', [c, b], c.result.rps / b.result.rps),
        check('(d)/(b) nginx vs direct, req/s', 'ratio', [d, b], d.result.rps / b.result.rps),
        // steadier than req/s on a shared machine: each proxy process's own CPU time per request
        // When the cores are saturated, req/s is about (CPU available) / (CPU per request): this ratio
        // estimates (c)/(d) from our processes' CPU time, which other work on the machine disturbs less
        check('(c)/(d) estimated from total CPU per request', 'ratio', [c, d], totalCpuPerRequestUs(d) / totalCpuPerRequestUs(c)),
        check('gateway process CPU per request (c)', 'us', [c], cpuPerRequestUs(c, 'gateway')),
        check('nginx CPU per request (d)', 'us', [d], cpuPerRequestUs(d, 'nginx')),
        check(
          `added p50 at ${rate}/s, evenly paced (c@paced)-(b@paced)`,
          'ms-added',
          [bPaced, cPaced],
          cPaced.result.latency.p50 - bPaced.result.latency.p50,
          {
            op: '<=',
            target: 1,
          },
        ),
        check(`added p99 at ${rate}/s, evenly paced`, 'ms-added', [bPaced, cPaced], cPaced.result.latency.p99 - bPaced.result.latency.p99),
        check(
          `added p50 at ${rate}/s, autocannon overallRate (c@ac)-(b@ac)`,
          'ms-added',
          [bRate, cRate],
          cRate.result.latency.p50 - bRate.result.latency.p50,
          {
            op: '<=',
            target: 1,
          },
        ),
        check(
          `added p99 at ${rate}/s, autocannon overallRate`,
          'ms-added',
          [bRate, cRate],
          cRate.result.latency.p99 - bRate.result.latency.p99,
        ),
      ],
    };
  },
};
