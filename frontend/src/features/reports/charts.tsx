import type { ReactNode } from 'react';

// Small SVG charts for the reports (no chart library: the page is lazy-loaded and these are ~200
// lines). Each is an image with an aria-label that states the data in words; the table under it
// carries every figure. Hovering a bar or point shows its value (an SVG <title>).

/** The drawing's width in SVG units; half-width cards pass a smaller one so the text stays readable. */
const WIDE = 640;
const M = { top: 12, right: 12, bottom: 36, left: 64 };

export interface Series {
  key: string;
  label: string;
  color: string;
  values: number[];
}

/** Round steps (1, 2, 2.5, 5 × 10^n) so the axis reads 0, 50, 100, 150 rather than 0, 47, 94. */
function niceTicks(max: number, count = 4, integer = false): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw && (!integer || Number.isInteger(s))) ?? Math.ceil(raw);
  const ticks: number[] = [];
  for (let v = 0; v < max + step; v += step) {
    ticks.push(Math.round(v * 100) / 100);
    if (v >= max) break;
  }
  return ticks;
}

/** Every k-th category label, so at most `max` fit under the axis. */
const labelEvery = (n: number, max = 12) => Math.max(1, Math.ceil(n / max));

function Frame({
  width: W,
  height,
  ticks,
  formatAxis,
  ariaLabel,
  children,
}: {
  width: number;
  height: number;
  ticks: number[];
  formatAxis: (n: number) => string;
  ariaLabel: string;
  children: (plot: { x0: number; x1: number; y: (v: number) => number; y0: number }) => ReactNode;
}) {
  const top = ticks[ticks.length - 1]!;
  const y0 = height - M.bottom;
  const y = (v: number) => y0 - (v / top) * (y0 - M.top);
  return (
    <svg className="report-chart" viewBox={`0 0 ${W} ${height}`} role="img" aria-label={ariaLabel} preserveAspectRatio="xMidYMid meet">
      {ticks.map((t) => (
        <g key={t}>
          <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} className="report-chart__grid" />
          <text x={M.left - 8} y={y(t)} dy="0.32em" textAnchor="end" className="report-chart__tick">
            {formatAxis(t)}
          </text>
        </g>
      ))}
      {children({ x0: M.left, x1: W - M.right, y, y0 })}
      <line x1={M.left} x2={W - M.right} y1={y0} y2={y0} className="report-chart__axis" />
    </svg>
  );
}

/** Bars per category: side by side, or stacked (one bar per category, a segment per series). */
export function BarChart({
  categories,
  series,
  axisLabels = categories,
  stacked = false,
  width = WIDE,
  height = 260,
  formatValue,
  formatAxis = formatValue,
  integer = false,
  ariaLabel,
}: {
  categories: string[];
  /** Shorter names under the axis (the full ones are in the hover text and the aria-label). */
  axisLabels?: string[];
  series: Series[];
  stacked?: boolean;
  width?: number;
  height?: number;
  formatValue: (n: number) => string;
  formatAxis?: (n: number) => string;
  integer?: boolean;
  ariaLabel: string;
}) {
  const totals = categories.map((_, i) => series.reduce((n, s) => n + (s.values[i] ?? 0), 0));
  const max = stacked ? Math.max(0, ...totals) : Math.max(0, ...series.flatMap((s) => s.values));
  const ticks = niceTicks(max, 4, integer);
  const every = labelEvery(categories.length, Math.floor(width / 70));
  return (
    <Frame width={width} height={height} ticks={ticks} formatAxis={formatAxis} ariaLabel={ariaLabel}>
      {({ x0, x1, y, y0 }) => {
        const band = (x1 - x0) / Math.max(1, categories.length);
        const gap = Math.min(12, band * 0.2);
        const groupWidth = band - gap;
        const barWidth = stacked ? groupWidth : groupWidth / Math.max(1, series.length);
        return categories.map((c, i) => {
          const left = x0 + i * band + gap / 2;
          let base = 0;
          return (
            <g key={`${c}-${i}`}>
              {series.map((s, j) => {
                const v = s.values[i] ?? 0;
                const from = stacked ? base : 0;
                base += v;
                if (v <= 0) return null;
                const top = y(from + v);
                return (
                  <rect
                    key={s.key}
                    x={stacked ? left : left + j * barWidth}
                    y={top}
                    width={Math.max(1, barWidth - (stacked ? 0 : 1))}
                    height={Math.max(1, y(from) - top)}
                    fill={s.color}
                    className="report-chart__bar"
                  >
                    <title>{`${c} · ${s.label}: ${formatValue(v)}`}</title>
                  </rect>
                );
              })}
              {i % every === 0 && (
                <text x={left + groupWidth / 2} y={y0 + 18} textAnchor="middle" className="report-chart__label">
                  {axisLabels[i]}
                </text>
              )}
            </g>
          );
        });
      }}
    </Frame>
  );
}

/** One line through a value per category, with a dot on each. */
export function LineChart({
  categories,
  axisLabels = categories,
  values,
  color = '#1677ff',
  height = 260,
  formatValue,
  formatAxis = formatValue,
  ariaLabel,
}: {
  categories: string[];
  axisLabels?: string[];
  values: number[];
  color?: string;
  height?: number;
  formatValue: (n: number) => string;
  formatAxis?: (n: number) => string;
  ariaLabel: string;
}) {
  const ticks = niceTicks(Math.max(0, ...values));
  const every = labelEvery(categories.length, Math.floor(WIDE / 56));
  return (
    <Frame width={WIDE} height={height} ticks={ticks} formatAxis={formatAxis} ariaLabel={ariaLabel}>
      {({ x0, x1, y, y0 }) => {
        const step = (x1 - x0) / Math.max(1, categories.length);
        const x = (i: number) => x0 + step * (i + 0.5);
        const d = values.map((v, i) => `${i === 0 ? 'M' : 'L'}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
        const area = values.length > 0 ? `${d} L${x(values.length - 1).toFixed(1)},${y0} L${x(0).toFixed(1)},${y0} Z` : '';
        return (
          <>
            <path d={area} fill={color} opacity={0.08} />
            <path d={d} fill="none" stroke={color} strokeWidth={2.5} strokeLinejoin="round" className="report-chart__line" />
            {values.map((v, i) => (
              <g key={`${categories[i]}-${i}`}>
                <circle cx={x(i)} cy={y(v)} r={4} fill="#fff" stroke={color} strokeWidth={2} className="report-chart__point">
                  <title>{`${categories[i]}: ${formatValue(v)}`}</title>
                </circle>
                {i % every === 0 && (
                  <text x={x(i)} y={y0 + 18} textAnchor="middle" className="report-chart__label">
                    {axisLabels[i]}
                  </text>
                )}
              </g>
            ))}
          </>
        );
      }}
    </Frame>
  );
}

/** A funnel: one centred bar per step, as wide as its share of the widest step, with count and share. */
export function FunnelChart({
  steps,
  total,
  width: W = WIDE,
  ariaLabel,
}: {
  steps: { key: string; label: string; value: number; color: string }[];
  total: number;
  width?: number;
  ariaLabel: string;
}) {
  const rowHeight = 34;
  const labelWidth = 110;
  const height = steps.length * rowHeight + 8;
  const widest = Math.max(1, ...steps.map((s) => s.value));
  const area = W - labelWidth - 100;
  const centre = labelWidth + area / 2;
  return (
    <svg className="report-chart" viewBox={`0 0 ${W} ${height}`} role="img" aria-label={ariaLabel}>
      {steps.map((s, i) => {
        const w = Math.max(2, (s.value / widest) * area);
        const top = 4 + i * rowHeight;
        const share = total > 0 ? `${((s.value / total) * 100).toFixed(1)}%` : '0.0%';
        return (
          <g key={s.key}>
            <text x={labelWidth - 10} y={top + rowHeight / 2} dy="0.32em" textAnchor="end" className="report-chart__label">
              {s.label}
            </text>
            <rect x={centre - w / 2} y={top + 3} width={w} height={rowHeight - 8} rx={4} fill={s.color} className="report-chart__bar">
              <title>{`${s.label}: ${s.value} (${share})`}</title>
            </rect>
            <text x={labelWidth + area + 12} y={top + rowHeight / 2} dy="0.32em" className="report-chart__value">
              {`${s.value} · ${share}`}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

export function Legend({ items }: { items: { key: string; label: string; color: string }[] }) {
  return (
    <ul className="report-legend" aria-label="Legend">
      {items.map((i) => (
        <li key={i.key}>
          <span className="report-legend__swatch" style={{ background: i.color }} aria-hidden />
          {i.label}
        </li>
      ))}
    </ul>
  );
}
