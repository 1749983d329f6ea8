import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { BenchContext, ADMIN, gatewaySrc } from '../lib/context.js';
import type { Row } from '../lib/report.js';
import type { Section } from '../lib/section.js';

const STAFF = { email: 'bench.staff@countinghouse.bench', password: 'bench-staff-password' };

/**
 * Issue 3: staff sign-in throughput (argon2id verification included) and session refresh, through the
 * all-in-one gateway. Sign-in is rate limited per address in production; the bench server lifts it.
 */
export const identitySection: Section = {
  name: 'identity',
  title: 'Staff sign-in (argon2id) and session refresh through the all-in-one gateway',
  description: 'POST /api/identity/auth/login (portal staff) and POST /api/identity/auth/refresh',
  async run(ctx, scope) {
    const pgEnv = await ctx.infra.ensure('postgres');
    const databaseUrl = await scope.database(pgEnv.DATABASE_URL!, 'identity_signin');
    const server = await scope.spawn({
      name: 'in-process-gateway',
      script: 'bench/servers/in-process.ts',
      env: {
        BENCH_MODE: 'gateway',
        BENCH_COMPOSE_MODULE: pathToFileURL(join(gatewaySrc(), 'compose.ts')).href,
        DATABASE_URL: databaseUrl,
        JWT_PUBLIC_KEY: BenchContext.pemEnv(ctx.keys.publicKeyPem),
        JWT_PRIVATE_KEY: BenchContext.pemEnv(ctx.keys.privateKeyPem),
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'warn',
      },
    });
    // A staff member: sign up, then grant the staff role directly.
    const signup = await fetch(`${server.url}/api/identity/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(STAFF),
    });
    if (signup.status !== 201) throw new Error(`bench sign-up failed: ${signup.status} ${await signup.text()}`);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    try {
      await pool.query(`insert into identity.user_roles (user_id, role) select id, 'staff' from identity.users where email = $1`, [
        STAFF.email,
      ]);
    } finally {
      await pool.end();
    }
    const login = await fetch(`${server.url}/api/identity/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...STAFF, portal: 'staff' }),
    });
    if (login.status !== 200) throw new Error(`bench staff sign-in failed: ${login.status}`);
    const rows: Row[] = await ctx.compare([
      {
        key: 'i1',
        label: 'staff sign-in (argon2id verify, session row, token)',
        url: `${server.url}/api/identity/auth/login`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...STAFF, portal: 'staff' }),
      },
    ]);
    // Refresh rotates its cookie, so each worker follows its own chain: refresh, take the new cookie,
    // refresh again. 10 chains for 8 seconds, every answer checked.
    const refresh = await refreshChains(server.url, 10, 8_000);
    return {
      rows,
      notes: [
        'Sign-in cost is dominated by argon2id (m=19456 KiB, t=2, p=1): about 19 ms of CPU each on this machine.',
        `session refresh (rotation + new access token), 10 chains: ${refresh.rps.toFixed(0)} req/s, p50 ${refresh.p50.toFixed(2)} ms, p99 ${refresh.p99.toFixed(2)} ms, ${refresh.failed} failed`,
      ],
      checks: [],
    };
  },
};

async function refreshChains(base: string, chains: number, durationMs: number) {
  const latencies: number[] = [];
  let failed = 0;
  const until = Date.now() + durationMs;
  await Promise.all(
    Array.from({ length: chains }, async () => {
      const r = await fetch(`${base}/api/identity/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(STAFF),
      });
      let cookie = cookieOf(r, 'ch_rt');
      while (Date.now() < until && cookie) {
        const t0 = performance.now();
        const res = await fetch(`${base}/api/identity/auth/refresh`, { method: 'POST', headers: { cookie } });
        const ms = performance.now() - t0;
        await res.arrayBuffer();
        if (res.status !== 200) {
          failed++;
          break;
        }
        latencies.push(ms);
        cookie = cookieOf(res, 'ch_rt');
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { rps: latencies.length / (durationMs / 1000), p50: at(0.5), p99: at(0.99), failed };
}

function cookieOf(res: Response, name: string): string {
  return (res.headers.getSetCookie?.() ?? []).find((c) => c.startsWith(`${name}=`))?.split(';')[0] ?? '';
}
