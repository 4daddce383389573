import { useState } from 'react';
import type { TablePaginationConfig } from 'antd';
import type { Page } from '@/api/core';
import { PAGE_SIZES, sortOf } from '@/utils/listQuery';

type Sorter = { columnKey?: unknown; order?: 'ascend' | 'descend' | null };

interface Options {
  /** The page sizes offered; the first is the initial one. */
  pageSizes?: number[];
  /** The server column sorted by when the table has no sorter (newest first). */
  orderBy?: string;
  /** The pager's "共 N 条" text, if it shows one. */
  showTotal?: (total: number) => string;
}

/**
 * A filtered, server-paged table's state: the applied `filters`, the query's pageIndex/pageSize and
 * orderBy/sort, `search` (new filters, back to page 1), and the Table's `onChange` (sorter) and
 * `pagination(total)` props (all four with the rows: `tableProps(list)`).
 */
export function usePagedQuery<F extends object>({ pageSizes = PAGE_SIZES, orderBy = 'create_time', showTotal }: Options = {}) {
  const [filters, setFilters] = useState<F>({} as F);
  const [page, setPage] = useState({ pageIndex: 1, pageSize: pageSizes[0] });
  const [order, setOrder] = useState(() => sortOf(undefined, orderBy));

  function search(values: F) {
    setFilters(values);
    setPage((p) => ({ ...p, pageIndex: 1 }));
  }

  function onTableChange(_pagination: unknown, _filters: unknown, sorter: Sorter | Sorter[]) {
    setOrder(sortOf(Array.isArray(sorter) ? sorter[0] : sorter, orderBy));
  }

  function pagination(total: number): TablePaginationConfig {
    return {
      current: page.pageIndex,
      pageSize: page.pageSize,
      total,
      showSizeChanger: true,
      pageSizeOptions: pageSizes,
      showTotal,
      onChange: (pageIndex, pageSize) => setPage({ pageIndex: pageSize === page.pageSize ? pageIndex : 1, pageSize }),
    };
  }

  /** The Table's rows, loading state, sorter and pager for a list query's page of `{ dataSource, totalCount }`. */
  function tableProps<T>(list: { data?: Page<T>; isFetching: boolean }) {
    return {
      dataSource: list.data?.dataSource ?? [],
      loading: list.isFetching,
      onChange: onTableChange,
      pagination: pagination(list.data?.totalCount ?? 0),
    };
  }

  return { filters, page, order, search, onTableChange, pagination, tableProps };
}
