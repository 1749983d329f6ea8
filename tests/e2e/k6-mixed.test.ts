import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findK6 } from '../../bench/sections/k6.js';
import { repoRoot } from '../processes.js';
import { E2E_SLOW_HOOK_MS, startE2EServer, type E2EServer } from './server.js';

/**
 * The k6 mixed workload (infra/k6/mixed.js, `npm run bench -- k6`) run briefly against the real product,
 * so the load test cannot rot: every scenario sends requests, every answer is the one the script checks
 * for, and the uploads land. Latency thresholds are the bench's business (they depend on the machine's
 * load), so this short run (SMOKE=1) holds every check and no failed request, not the latencies. k6 is installed by scripts/install-test-deps.sh; in
 * CI a missing k6 is a failure.
 */
const k6 = findK6();
if (!k6 && process.env.CI === 'true') throw new Error('k6 is not installed (scripts/install-test-deps.sh installs it)');

interface Summary {
  metrics: Record<string, { values: Record<string, number> } | undefined>;
}

let server: E2EServer;
let work: string;

beforeAll(async () => {
  server = await startE2EServer({ SEED_DEMO: 'true', DEMO_PASSWORD: 'k6-demo-password-2026', SIGN_IN_RATE_LIMIT: '1000000' });
  work = mkdtempSync(join(tmpdir(), 'k6-test-'));
}, E2E_SLOW_HOOK_MS);
afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

function runK6(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(k6!, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => void (out += b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => void (out += b.toString('utf8')));
    child.on('exit', (code) => resolve({ code: code ?? 1, out }));
  });
}

describe.skipIf(!k6)('the k6 mixed workload', () => {
  it('runs every scenario against the product with every check passing and no failed request', async () => {
    const summaryPath = join(work, 'summary.json');
    const before = await server.pool.query<{ n: string }>(`select count(*) as n from documents.client_documents`);
    const { code, out } = await runK6([
      'run',
      '--quiet',
      '--no-usage-report',
      '-e',
      `BASE_URL=${server.baseUrl}`,
      '-e',
      `ADMIN_USERNAME=${server.admin.username}`,
      '-e',
      `ADMIN_PASSWORD=${server.admin.password}`,
      '-e',
      'SMOKE=1',
      '-e',
      'RATE=20',
      '-e',
      'DURATION=6s',
      '-e',
      `SUMMARY=${summaryPath}`,
      join(repoRoot, 'infra/k6/mixed.js'),
    ]);
    expect(code, out).toBe(0);
    const s = JSON.parse(readFileSync(summaryPath, 'utf8')) as Summary;
    expect(s.metrics.http_reqs!.values.count, out).toBeGreaterThan(60);
    expect(s.metrics.http_req_failed!.values.rate, out).toBe(0);
    // every check of every scenario (public page, client list, unread count, upload, sign-in) passed
    expect(s.metrics.checks!.values.fails, out).toBe(0);
    for (const scenario of ['publicPages', 'clients', 'notifications', 'upload', 'signIn']) {
      // a trend with no samples reports zeros; any real request took some time
      expect(s.metrics[`http_req_duration{scenario:${scenario}}`]?.values.max ?? 0, scenario).toBeGreaterThan(0);
    }
    const after = await server.pool.query<{ n: string }>(`select count(*) as n from documents.client_documents`);
    expect(Number(after.rows[0]!.n)).toBeGreaterThan(Number(before.rows[0]!.n));
  }, 90_000);
});
