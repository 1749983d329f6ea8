import { useState } from 'react';
import type { TablePaginationConfig } from 'antd';
import { formatCount } from '@countinghouse/proto';

/** The range under a paged list: '1–20 of 1,234'. */
export const showRange = (n: number, [from, to]: [number, number]) => `${from}–${to} of ${formatCount(n)}`;

export interface Paging {
  page: number;
  pageSize: number;
  /** The table's page change: a new page size starts again at the first page. */
  onPage: (page: number, pageSize: number) => void;
}

/** A server-paged list's page and page size (20 to start with). */
export function usePaging() {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const onPage = (p: number, size: number) => {
    setPage(size === pageSize ? p : 1);
    setPageSize(size);
  };
  /** A search or filter setter that also goes back to the first page. */
  const andFirstPage =
    <T>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };
  return { page, pageSize, onPage, andFirstPage };
}

/** A paged table's pagination: page size changer and the range line. */
export function tablePagination({ page, pageSize, onPage }: Paging, total: number, pageSizeOptions?: number[]): TablePaginationConfig {
  return {
    current: page,
    pageSize,
    total,
    onChange: onPage,
    showSizeChanger: true,
    ...(pageSizeOptions ? { pageSizeOptions } : {}),
    showTotal: showRange,
  };
}
