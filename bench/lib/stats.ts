/** Latency samples in milliseconds (floating point), summarised exactly: no histogram buckets. */
export interface LatencySummary {
  samples: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  max: number;
}

export class LatencyRecorder {
  private buf = new Float64Array(1 << 16);
  private n = 0;

  record(ms: number) {
    if (this.n === this.buf.length) {
      const next = new Float64Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.n++] = ms;
  }

  get count() {
    return this.n;
  }

  summary(): LatencySummary {
    const s = this.buf.slice(0, this.n).sort();
    let sum = 0;
    for (const v of s) sum += v;
    return {
      samples: this.n,
      p50: percentile(s, 50),
      p90: percentile(s, 90),
      p99: percentile(s, 99),
      mean: this.n ? sum / this.n : NaN,
      max: this.n ? s[this.n - 1]! : NaN,
    };
  }
}

/** Nearest-rank percentile of sorted samples. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}
