import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import pg from 'pg';
import { seedDocuments } from '../../services/documents/scripts/seed.js';
import { ADMIN, BenchContext, bearer, signIn } from '../lib/context.js';
import { check } from '../lib/report.js';
import type { Section } from '../lib/section.js';
import { LatencyRecorder, type LatencySummary } from '../lib/stats.js';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 200_000);
const MB = 1024 * 1024;
const FILE_BYTES = 10 * MB;

/** Resident memory of a process, in bytes (Linux). */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

/** A valid PDF header followed by filler: exactly `bytes` long. */
function pdfOf(bytes: number): Buffer {
  const head = Buffer.from('%PDF-1.4\n%bench\n');
  return Buffer.concat([head, Buffer.alloc(bytes - head.length, 0x20)]);
}

async function upload(base: string, token: string, clientId: string, name: string, data: Buffer): Promise<void> {
  const form = new FormData();
  form.append('client_id', clientId);
  form.append('document_type', 'general');
  form.append('files', new Blob([data], { type: 'application/pdf' }), name);
  const res = await fetch(`${base}/api/documents`, { method: 'POST', headers: bearer(token), body: form });
  if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

/** The disk's own speed for the same bytes, written the way the server writes them (stream, no fsync). */
async function diskWrite(dir: string, chunks: number, chunk: Buffer): Promise<number> {
  const t0 = performance.now();
  for (let f = 0; f < chunks; f++) {
    const out = createWriteStream(join(dir, `disk-${f}.bin`));
    for (let off = 0; off < chunk.length; off += 64 * 1024) {
      if (!out.write(chunk.subarray(off, off + 64 * 1024))) await once(out, 'drain');
    }
    out.end();
    await once(out, 'close');
  }
  return (chunks * chunk.length) / MB / ((performance.now() - t0) / 1000);
}

/**
 * Documents: list+search latency over 200,000 seeded documents through the gateway, resident-memory
 * growth while ten 10 MB files upload at once, and upload throughput against the disk's own speed.
 */
export const documentsSection: Section = {
  name: 'documents',
  title: `Documents: search over ${DOCUMENTS.toLocaleString('en-GB')} rows, upload memory and throughput`,
  description: 'list/search p50 p99 through the all-in-one gateway; RSS growth for 10 x 10 MB parallel uploads; upload MB/s vs disk',
  async run(ctx, scope) {
    const pgEnv = await ctx.infra.ensure('postgres');
    const databaseUrl = await scope.database(pgEnv.DATABASE_URL!, 'documents');
    const storage = mkdtempSync(join(tmpdir(), 'bench-documents-'));
    scope.onCleanup(async () => rmSync(storage, { recursive: true, force: true }));
    const server = await scope.spawn({
      name: 'documents-all-in-one',
      script: 'bench/sections/documents-server.ts',
      readyPath: '/health/live',
      env: {
        DATABASE_URL: databaseUrl,
        JWT_PUBLIC_KEY: BenchContext.pemEnv(ctx.keys.publicKeyPem),
        JWT_PRIVATE_KEY: BenchContext.pemEnv(ctx.keys.privateKeyPem),
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        DOCUMENTS_STORAGE_DIR: join(storage, 'documents'),
        DOCUMENTS_LINK_SECRET: randomBytes(32).toString('base64url'),
        LOG_LEVEL: 'warn',
        // other services' plugins in the same process demand production secrets (e.g. integrations' key)
        NODE_ENV: 'development',
      },
    });
    const token = await signIn(server.url);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    scope.onCleanup(() => pool.end());
    const notes: string[] = [];

    // --- seed
    let t0 = performance.now();
    const clients = await seedDocuments(pool, DOCUMENTS, 2_000);
    const seedS = (performance.now() - t0) / 1000;
    ctx.log(`documents: seeded ${DOCUMENTS} rows for ${clients.length} clients in ${seedS.toFixed(1)} s`);
    notes.push(
      `seed: ${DOCUMENTS.toLocaleString('en-GB')} documents for ${clients.length.toLocaleString('en-GB')} clients in ${seedS.toFixed(1)} s (one INSERT ... SELECT generate_series)`,
    );

    // --- list + search latency, one request at a time through the gateway (what a person waits for)
    const queries = [
      'page=1&page_size=20',
      'page=50&page_size=20',
      'search=invoice&page_size=20',
      'search=acme%20bakery%2017&page_size=20',
      'search=owner1234%40&page_size=20',
      'search=quarter%203%20ledger&page_size=20',
      'search=forecast-contract-2024&page_size=20',
      'search=zzzz-no-match&page_size=20',
      'type=vat&status=pending&page_size=20',
      `client_id=${clients[7]}&page_size=20`,
      'search=payslip&type=payroll&page_size=50',
    ];
    const run = async (qs: string) => {
      const s = performance.now();
      const res = await fetch(`${server.url}/api/documents?${qs}`, { headers: bearer(token) });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`GET /api/documents?${qs}: ${res.status} ${body.slice(0, 200)}`);
      return performance.now() - s;
    };
    for (let i = 0; i < 3; i++) for (const q of queries) await run(q); // warm caches and plans
    const all = new LatencyRecorder();
    const searchOnly = new LatencyRecorder();
    const byShape = new Map(queries.map((q) => [q, new LatencyRecorder()]));
    const rounds = Math.max(20, Math.round(ctx.settings.durationS * 5));
    for (let r = 0; r < rounds; r++) {
      for (const q of queries) {
        const ms = await run(q);
        all.record(ms);
        byShape.get(q)!.record(ms);
        if (q.startsWith('search=')) searchOnly.record(ms);
      }
    }
    const a: LatencySummary = all.summary();
    const s: LatencySummary = searchOnly.summary();
    const summaryMs = await (async () => {
      const rec = new LatencyRecorder();
      for (let i = 0; i < 30; i++) {
        const st = performance.now();
        await (await fetch(`${server.url}/api/documents/summary`, { headers: bearer(token) })).text();
        rec.record(performance.now() - st);
      }
      return rec.summary();
    })();
    notes.push(
      `list+search, ${a.samples} sequential requests over ${queries.length} query shapes: p50 ${a.p50.toFixed(1)} ms, p90 ${a.p90.toFixed(1)} ms, p99 ${a.p99.toFixed(1)} ms, max ${a.max.toFixed(1)} ms`,
    );
    notes.push(
      `search only (${s.samples}): p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms; summary cards: p50 ${summaryMs.p50.toFixed(1)} ms, p99 ${summaryMs.p99.toFixed(1)} ms`,
    );
    notes.push(
      `per query shape, p50/p99 ms: ${[...byShape].map(([q, r]) => `${q.replace(/&?page_size=\d+/, '') || 'all'} ${r.summary().p50.toFixed(0)}/${r.summary().p99.toFixed(0)}`).join('; ')}`,
    );
    notes.push(
      `load average at the end of the latency runs: ${(await import('node:os'))
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${(await import('node:os')).availableParallelism()} cores`,
    );
    const plan = await pool.query(
      `explain (analyze, costs off, timing off, summary off) select d.id from documents.client_documents d
       where d.search_text like '%invoice-ledger%' order by d.created_at desc, d.id desc limit 20`,
    );
    notes.push(`plan (search): ${plan.rows.map((r) => String(r['QUERY PLAN']).trim()).join(' / ')}`);

    // --- memory: ten 10 MB uploads at once
    const file = pdfOf(FILE_BYTES);
    const target = clients[0]!;
    await upload(server.url, token, target, 'warm-up.pdf', file);
    await new Promise((r) => setTimeout(r, 500));
    const before = rssOf(server.pid);
    let peak = before;
    const sampler = setInterval(() => {
      const v = rssOf(server.pid);
      if (v > peak) peak = v;
    }, 10);
    t0 = performance.now();
    await Promise.all(Array.from({ length: 10 }, (_, i) => upload(server.url, token, target, `parallel-${i}.pdf`, file)));
    const parallelS = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const growthMb = (peak - before) / MB;
    notes.push(
      `memory: server RSS ${(before / MB).toFixed(0)} MB before, peak ${(peak / MB).toFixed(0)} MB during ten 10 MB uploads at once: growth ${growthMb.toFixed(1)} MB (took ${parallelS.toFixed(2)} s)`,
    );

    // --- throughput vs the disk, same bytes, same folder
    t0 = performance.now();
    for (let i = 0; i < 10; i++) await upload(server.url, token, target, `serial-${i}.pdf`, file);
    const uploadMbS = (10 * FILE_BYTES) / MB / ((performance.now() - t0) / 1000);
    const diskDir = mkdtempSync(join(storage, 'disk-'));
    const diskMbS = await diskWrite(diskDir, 10, file);
    notes.push(
      `throughput: upload ${uploadMbS.toFixed(0)} MB/s (10 x 10 MB, one after another, client in this process) vs disk ${diskMbS.toFixed(0)} MB/s (same bytes, stream writes, no fsync)`,
    );

    return {
      rows: [],
      checks: [
        check('list+search p50 (ms)', 'ms', [], a.p50),
        check(`list+search p99 over ${DOCUMENTS.toLocaleString('en-GB')} documents`, 'ms', [], a.p99, { op: '<', target: 50 }),
        check('search-only p99', 'ms', [], s.p99, { op: '<', target: 50 }),
        check('RSS growth, ten 10 MB uploads at once, share of 64 MB', 'pct', [], (growthMb / 64) * 100, { op: '<', target: 100 }),
        check('upload throughput / disk write speed', 'ratio', [], uploadMbS / diskMbS),
      ],
      notes,
    };
  },
};
