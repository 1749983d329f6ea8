import { DOCUMENT_TYPES, formatCount, type ReportRangeQuery, type SubscriptionStatus } from '@countinghouse/proto';

// What the report widgets share: colours, labels, number formats, and the props every report takes.

/** Every report is drawn for one range; `skip` while the range is not valid. */
export interface ReportProps {
  range: ReportRangeQuery;
  skip: boolean;
}

/** The queries' options: always fresh when the page opens or the range changes. */
export const reportQueryOptions = (skip: boolean) => ({ skip, refetchOnMountOrArgChange: true });

export const STATUS_COLOURS: Record<SubscriptionStatus, string> = {
  active: '#52c41a',
  pending: '#1677ff',
  cancelled: '#bfbfbf',
  overdue: '#fa8c16',
};
export const STAGE_COLOURS: Record<string, string> = {
  new_enquiry: '#1677ff',
  qualified: '#13c2c2',
  proposal_sent: '#722ed1',
  negotiation: '#fa8c16',
  won: '#52c41a',
  lost: '#ff4d4f',
};
const TYPE_COLOURS = ['#1677ff', '#52c41a', '#faad14', '#eb2f96', '#722ed1', '#13c2c2', '#fa541c', '#2f54eb', '#8c8c8c'];
export const DOCUMENT_TYPE_SERIES = DOCUMENT_TYPES.map((t, i) => ({
  key: t.value as string,
  label: t.label as string,
  color: TYPE_COLOURS[i % TYPE_COLOURS.length]!,
}));

export const count = formatCount;
export const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;
export const wholePounds = (n: number) => `£${formatCount(n)}`;
export const packageLabel = (name: string | null) => name ?? 'No package';
/** Shorter names under the bars. */
export const packageShort = (name: string | null) => (name ? name.replace(/ Package$/, '').replace(/^Limited Company /, '') : 'None');
export const sourceLabel = (source: string | null) => source ?? 'No source';
