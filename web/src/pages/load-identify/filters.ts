import type { LoadEventQuery } from '@/api/schema';
import { timeRange, type TimeRange } from '@/utils/listQuery';

export interface LoadFilters {
  project_sysno?: number | null;
  appliance?: string | null;
  forbidden?: 0 | 1 | null;
  action?: LoadEventQuery['action'];
  range?: TimeRange;
  keyword?: string | null;
}

/** The list request for the filter form: empty filters are sent as null. */
export function toQuery(
  filters: LoadFilters,
  page: { pageIndex: number; pageSize: number; orderBy?: string | null; sort?: LoadEventQuery['sort'] },
): LoadEventQuery {
  return {
    pageIndex: page.pageIndex,
    pageSize: page.pageSize,
    project_sysno: filters.project_sysno ?? null,
    appliance: filters.appliance || null,
    forbidden: filters.forbidden ?? null,
    action: filters.action ?? null,
    ...timeRange(filters.range),
    keyword: filters.keyword?.trim() || null,
    orderBy: page.orderBy ?? 'event_time',
    sort: page.sort ?? 'desc',
  };
}

/** `97%` for a confidence of 0.97. */
export function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}

/** `1,850 W` for 1850.4 W. */
export function watts(value: number): string {
  return `${Math.round(value).toLocaleString('zh-CN')} W`;
}
