import type { Dayjs } from 'dayjs';

export const SERVER_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const PAGE_SIZES = [10, 20, 30, 50];

export type TimeRange = [Dayjs | null, Dayjs | null] | null | undefined;

/** A range picker's value as the server's start_time/end_time; an empty side is sent as null. */
export function timeRange(range: TimeRange): { start_time: string | null; end_time: string | null } {
  const [start, end] = range ?? [null, null];
  return {
    start_time: start ? start.format(SERVER_TIME_FORMAT) : null,
    end_time: end ? end.format(SERVER_TIME_FORMAT) : null,
  };
}

/** A `sysno` route parameter as a positive integer id, or null when it is missing or malformed. */
export function parseSysno(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 ? id : null;
}

/** antd's table sorter as the server's orderBy/sort, falling back to the default column. */
export function sortOf(
  sorter: { columnKey?: unknown; order?: 'ascend' | 'descend' | null } | undefined,
  fallback: string,
): { orderBy: string; sort: 'asc' | 'desc' } {
  if (!sorter?.order) return { orderBy: fallback, sort: 'desc' };
  return { orderBy: String(sorter.columnKey ?? fallback), sort: sorter.order === 'ascend' ? 'asc' : 'desc' };
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
