import type { OperationLogQuery } from '@/api/schema';
import { timeRange, type TimeRange } from '@/utils/listQuery';

export interface OperationLogFilters {
  operate_type?: number | null;
  range?: TimeRange;
}

/** The list request for the filter form: empty filters are sent as null. */
export function toQuery(
  filters: OperationLogFilters,
  page: { pageIndex: number; pageSize: number },
  sort: 'asc' | 'desc' = 'desc',
): OperationLogQuery {
  return {
    pageIndex: page.pageIndex,
    pageSize: page.pageSize,
    operate_type: filters.operate_type ?? null,
    ...timeRange(filters.range),
    orderBy: 'create_time',
    sort,
  };
}
