import { addYears, defaultReportRange, londonToday, type ReportRangeQuery } from '@countinghouse/proto';
import dayjs, { type Dayjs } from 'dayjs';
import { useSearchParams } from 'react-router-dom';

/** The range from ?from=&to= (shareable), else the last 12 months (worked out now, not at import). */
export function useReportRange(): [ReportRangeQuery, (r: ReportRangeQuery) => void] {
  const [params, setParams] = useSearchParams();
  const fallback = defaultReportRange();
  const range = { from: params.get('from') ?? fallback.from, to: params.get('to') ?? fallback.to };
  return [range, (r) => setParams({ from: r.from, to: r.to })];
}

type Range = [Dayjs, Dayjs];

/**
 * The date picker's presets. Each is a function the picker calls when it shows or applies the preset,
 * so "This year" is this year even when the page was opened before midnight on 31 December
 * (computed at import, they went stale: issue 17.7). Days are London's.
 */
export function reportPresets(now: () => Date = () => new Date()): { label: string; value: () => Range }[] {
  const today = () => londonToday(now());
  const day = () => dayjs(today());
  return [
    { label: 'Last 12 months', value: () => [dayjs(defaultReportRange(now()).from), day()] },
    { label: 'Last 3 months', value: () => [day().subtract(2, 'month').startOf('month'), day()] },
    { label: 'This year', value: () => [day().startOf('year'), day()] },
    { label: 'Last year', value: () => [day().subtract(1, 'year').startOf('year'), day().subtract(1, 'year').endOf('year')] },
    { label: 'Last 5 years', value: () => [dayjs(addYears(today(), -5)), day()] },
  ];
}
