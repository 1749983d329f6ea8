import { Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ReactNode } from 'react';
import { toCsv, type CsvCell } from '../csv';

/** A table that is also a CSV file: each column says how it shows and how it exports. */
export interface Column<R> {
  title: string;
  show: (r: R) => ReactNode;
  csv: (r: R) => CsvCell;
  /** The CSV header when it differs (money in GBP without the symbol). */
  csvTitle?: string;
  numeric?: boolean;
}

export function csvOf<R>(columns: Column<R>[], rows: readonly R[]): string {
  return toCsv(
    columns.map((c) => c.csvTitle ?? c.title),
    rows.map((r) => columns.map((c) => c.csv(r))),
  );
}

export function ReportTable<R>({
  label,
  rows,
  columns,
  rowKey,
  pageSize,
}: {
  label: string;
  rows: readonly R[];
  columns: Column<R>[];
  rowKey: (r: R) => string;
  pageSize?: number;
}) {
  const antColumns: ColumnsType<R> = columns.map((c, i) => ({
    key: String(i),
    title: c.title,
    align: c.numeric ? 'right' : 'left',
    render: (_: unknown, r: R) => c.show(r),
  }));
  return (
    <div role="region" aria-label={`${label} (table)`}>
      <Table<R>
        size="small"
        rowKey={rowKey}
        columns={antColumns}
        dataSource={rows as R[]}
        pagination={pageSize && rows.length > pageSize ? { pageSize, showSizeChanger: false, size: 'small' } : false}
        scroll={{ x: 'max-content' }}
      />
    </div>
  );
}
