import { DownloadOutlined } from '@ant-design/icons';
import { REPORT_MESSAGES, type ReportRangeQuery } from '@countinghouse/proto';
import { Alert, Button, Card, Empty, Skeleton, Statistic } from 'antd';
import type { ReactNode } from 'react';
import { errorBody } from '../../../app/api';
import { csvFilename, downloadCsv } from '../csv';

export function CsvButton({ label, onClick, disabled }: { label: string; onClick: () => void; disabled?: boolean }) {
  return (
    <Button size="small" icon={<DownloadOutlined />} onClick={onClick} disabled={disabled} aria-label={`Download CSV: ${label}`}>
      Download CSV
    </Button>
  );
}

/** What a card needs to know of its query (an RTK Query result). */
export interface QueryState {
  isLoading: boolean;
  isFetching: boolean;
  isError: boolean;
  error?: unknown;
}

/** A chart and its table in one card, with its loading, error and empty states and the CSV button. */
export function ReportCard({
  title,
  query,
  isEmpty,
  emptyText,
  csv,
  children,
}: {
  title: string;
  query: QueryState;
  isEmpty: boolean;
  emptyText: string;
  csv?: { label: string; name: string; build: () => string; range: ReportRangeQuery };
  children: ReactNode;
}) {
  const ready = !query.isLoading && !query.isError;
  let body: ReactNode;
  if (query.isLoading) body = <Skeleton active paragraph={{ rows: 5 }} />;
  else if (query.isError) body = <Alert type="error" showIcon title={errorBody(query.error)?.message ?? REPORT_MESSAGES.loadFailed} />;
  else if (isEmpty) body = <Empty className="report-card__empty" description={emptyText} />;
  else body = children;
  return (
    <Card
      title={title}
      className="report-card"
      aria-busy={query.isFetching}
      extra={
        csv && <CsvButton label={csv.label} disabled={!ready} onClick={() => downloadCsv(csvFilename(csv.name, csv.range), csv.build())} />
      }
    >
      {body}
    </Card>
  );
}

/** One figure of the headline row. */
export function Headline({ title, value, note, loading }: { title: string; value: string; note?: ReactNode; loading: boolean }) {
  return (
    <Card size="small">
      <Statistic title={title} value={loading ? '…' : value} />
      <div className="report-stat__note">{loading ? '\u00a0' : (note ?? '\u00a0')}</div>
    </Card>
  );
}
