import type { Dayjs } from 'dayjs';
import type { OperationLogQuery } from '@/api/logs/types';

export const SERVER_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const PAGE_SIZES = [10, 20, 30, 50];

export interface OperationLogFilters {
  operate_type?: number | null;
  range?: [Dayjs | null, Dayjs | null] | null;
}

/** The list request for the filter form: empty filters are sent as null. */
export function toQuery(
  filters: OperationLogFilters,
  page: { pageIndex: number; pageSize: number },
  sort: 'asc' | 'desc' = 'desc',
): OperationLogQuery {
  const [start, end] = filters.range ?? [null, null];
  return {
    pageIndex: page.pageIndex,
    pageSize: page.pageSize,
    operate_type: filters.operate_type ?? null,
    start_time: start ? start.format(SERVER_TIME_FORMAT) : null,
    end_time: end ? end.format(SERVER_TIME_FORMAT) : null,
    orderBy: 'create_time',
    sort,
  };
}
