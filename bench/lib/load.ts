import autocannon, { type Result } from 'autocannon';
import { performance } from 'node:perf_hooks';
import type { CpuProbe, CpuUsage } from './cpu.js';
import { buildGet, RawConnection } from './raw-http.js';
import { LatencyRecorder, type LatencySummary } from './stats.js';

/**
 * What one load run measured. Latencies come from every 2xx response, at microsecond resolution
 * (autocannon's own histogram rounds to whole milliseconds, too coarse for a 1 ms aim).
 */
export interface LoadResult {
  url: string;
  generator: 'autocannon' | 'paced';
  connections: number;
  durationS: number;
  /** Requested rate for fixed-rate runs; absent when the run goes as fast as it can. */
  targetRate?: number;
  /** 2xx responses received during the measured window. */
  ok: number;
  rps: number;
  latency: LatencySummary;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** Paced runs: requests sent more than 2 ms after their due time (generator starved of CPU, or every connection busy). */
  waited?: number;
  /** CPU time by process group during the measured window (not the warm-up). */
  cpu?: CpuUsage;
}

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  durationS: number;
  /** Load the target this long first, results discarded (JIT, connection pools, caches). */
  warmupS: number;
  /** Fixed-rate run with autocannon's overallRate (requests per second over all connections). */
  overallRate?: number;
  /** Defaults to GET without a body. */
  method?: 'GET' | 'POST';
  body?: string;
  /** Started after the warm-up, stopped when the measured run ends. */
  probe?: CpuProbe;
}

interface RawRun {
  result: Result;
  rec: LatencyRecorder;
  codes: Record<string, number>;
}

function autocannonOnce(o: Omit<LoadOptions, 'warmupS'>, durationS: number): Promise<RawRun> {
  return new Promise((resolve, reject) => {
    const rec = new LatencyRecorder();
    const codes: Record<string, number> = {};
    const inst = autocannon(
      {
        url: o.url,
        headers: o.headers,
        connections: o.connections,
        duration: durationS,
        timeout: 10,
        ...(o.overallRate ? { overallRate: o.overallRate } : {}),
        ...(o.method ? { method: o.method } : {}),
        ...(o.body ? { body: o.body } : {}),
      },
      (err, result) => (err ? reject(err) : resolve({ result, rec, codes })),
    );
    inst.on('response', (_client, statusCode, _bytes, responseTime) => {
      codes[statusCode] = (codes[statusCode] ?? 0) + 1;
      if (statusCode >= 200 && statusCode < 300) rec.record(responseTime);
    });
    activeRuns.add(inst);
    inst.on('done', () => activeRuns.delete(inst));
  });
}

const activeRuns = new Set<{ stop(): void }>();

/** Stop any load still running (interrupted bench). */
export function stopAllLoad() {
  for (const r of activeRuns) r.stop();
  activeRuns.clear();
}

/** Warm up, then measure with autocannon (closed loop, or autocannon's fixed overallRate). */
export async function measure(o: LoadOptions): Promise<LoadResult> {
  if (o.warmupS > 0) await autocannonOnce(o, o.warmupS);
  o.probe?.start();
  const { result, rec, codes } = await autocannonOnce(o, o.durationS);
  const cpu = o.probe?.stop();
  const elapsedS = (result.finish.getTime() - result.start.getTime()) / 1000 || o.durationS;
  return {
    url: o.url,
    generator: 'autocannon',
    connections: o.connections,
    durationS: o.durationS,
    ...(o.overallRate ? { targetRate: o.overallRate } : {}),
    ok: rec.count,
    rps: rec.count / elapsedS,
    latency: rec.summary(),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: codes,
    ...(cpu ? { cpu } : {}),
  };
}

export interface PacedOptions {
  url: string;
  headers?: Record<string, string>;
  /** Requests per second, sent evenly (open loop: a slow answer does not delay the next request). */
  rate: number;
  durationS: number;
  warmupS: number;
  /** Keep-alive connections the client may open. */
  maxSockets: number;
  probe?: CpuProbe;
}

/**
 * An open-loop fixed-rate client: requests leave evenly spaced (a 1 ms timer sends whatever is due),
 * unlike autocannon's overallRate, which lets each connection send its quota for the second back to
 * back and then idle until the next second (so at 1,000/s over 20 connections it measures bursts of
 * 20 concurrent requests). Latency runs from writing a request to its last response byte.
 */
export async function measurePaced(o: PacedOptions): Promise<LoadResult> {
  if (o.warmupS > 0) await pacedOnce({ ...o, durationS: o.warmupS });
  o.probe?.start();
  const r = await pacedOnce(o);
  const cpu = o.probe?.stop();
  return cpu ? { ...r, cpu } : r;
}

async function pacedOnce(o: PacedOptions): Promise<LoadResult> {
  const u = new URL(o.url);
  const host = u.hostname;
  const port = Number(u.port || 80);
  const request = buildGet(u, o.headers);
  const conns: RawConnection[] = [];
  let opening = 0;
  const queue: number[] = []; // requests waiting for a free connection (their due times)
  const rec = new LatencyRecorder();
  const codes: Record<string, number> = {};
  const total = Math.round(o.rate * o.durationS);
  let sent = 0;
  let done = 0;
  let errors = 0;
  let waited = 0;
  let stopped = false;
  const stopper = { stop: () => (stopped = true) };
  activeRuns.add(stopper);
  for (let i = 0; i < Math.min(4, o.maxSockets); i++) conns.push(await RawConnection.open(host, port, request));

  let resolveAll!: () => void;
  const allDone = new Promise<void>((r) => (resolveAll = r));
  const settle = () => {
    done++;
    if (done === total || (stopped && done === sent)) resolveAll();
    const next = queue.shift();
    if (next !== undefined) dispatch(next);
  };
  const run = (c: RawConnection, dueAt: number) => {
    if (performance.now() - dueAt > 2) waited++;
    c.send().then(
      (r) => {
        codes[r.status] = (codes[r.status] ?? 0) + 1;
        if (r.status >= 200 && r.status < 300) rec.record(r.ms);
        settle();
      },
      () => {
        errors++;
        const i = conns.indexOf(c);
        if (i >= 0) conns.splice(i, 1);
        settle();
      },
    );
  };
  const dispatch = (dueAt: number) => {
    const free = conns.find((c) => c.usable);
    if (free) return run(free, dueAt);
    if (conns.length + opening < o.maxSockets) {
      opening++;
      RawConnection.open(host, port, request).then(
        (c) => {
          opening--;
          conns.push(c);
          run(c, dueAt);
        },
        () => {
          opening--;
          errors++;
          settle();
        },
      );
      return;
    }
    queue.push(dueAt);
  };

  const start = performance.now();
  const tick = () => {
    if (stopped) {
      if (done === sent) resolveAll();
      return;
    }
    const now = performance.now();
    const due = Math.min(total, Math.floor(((now - start) * o.rate) / 1000) + 1);
    while (sent < due) {
      const dueAt = start + (sent * 1000) / o.rate;
      sent++;
      dispatch(dueAt);
    }
    if (sent < total) setTimeout(tick, 1);
  };
  tick();
  await allDone;
  const elapsedS = (performance.now() - start) / 1000;
  activeRuns.delete(stopper);
  for (const c of conns) c.close();
  const nonOk = Object.entries(codes)
    .filter(([c]) => !c.startsWith('2'))
    .reduce((a, [, n]) => a + n, 0);
  return {
    url: o.url,
    generator: 'paced',
    connections: o.maxSockets,
    durationS: o.durationS,
    targetRate: o.rate,
    ok: rec.count,
    rps: rec.count / Math.max(elapsedS, o.durationS),
    latency: rec.summary(),
    non2xx: nonOk,
    errors,
    timeouts: 0,
    statusCodes: codes,
    waited,
  };
}
