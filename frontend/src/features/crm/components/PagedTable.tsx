import { Table, type TableColumnsType } from 'antd';
import { LoadFailed } from './LoadFailed';
import { tablePagination, type Paging } from './paging';

interface Props<T> {
  /** The list query: a failure shows loadFailed above the table and as its empty text. */
  list: { isError: boolean; isFetching: boolean; refetch: () => unknown };
  rows: T[] | undefined;
  total: number;
  columns: TableColumnsType<T>;
  paging: Paging;
  loadFailed: string;
  emptyText: string;
}

/** A workspace's server-paged table with its load failure and retry. */
export function PagedTable<T extends { id: string }>({ list, rows, total, columns, paging, loadFailed, emptyText }: Props<T>) {
  return (
    <>
      {list.isError && <LoadFailed text={loadFailed} onRetry={() => void list.refetch()} />}
      <Table<T>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={list.isFetching}
        scroll={{ x: 900 }}
        tableLayout="auto"
        locale={{ emptyText: list.isError ? loadFailed : emptyText }}
        pagination={tablePagination(paging, total)}
      />
    </>
  );
}
