import { timeRange, type TimeRange } from '@/utils/listQuery';

/** A `sysno` route parameter as a positive integer id, or null when it is missing or malformed. */
export function parseSysno(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 ? id : null;
}

/** The filters every log list offers: a project, a keyword and a time range. */
export interface LogFilters {
  project_sysno?: number | null;
  keyword?: string;
  range?: TimeRange;
}

/** The query part every log list sends: its page and order, and the project, keyword and time range filters. */
export function logQuery(paged: {
  page: { pageIndex: number; pageSize: number };
  order: { orderBy: string; sort: 'asc' | 'desc' };
  filters: LogFilters;
}) {
  const { project_sysno, keyword, range } = paged.filters;
  return {
    ...paged.page,
    ...paged.order,
    project_sysno: project_sysno ?? null,
    keyword: keyword?.trim() || null,
    ...timeRange(range),
  };
}
