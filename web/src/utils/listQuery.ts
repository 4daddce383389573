import type { Dayjs } from 'dayjs';

/** How the server writes times, and how filters send them. */
export const SERVER_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** The page sizes a server-paged table offers unless it has a reason for others. */
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

/** antd's table sorter as the server's orderBy/sort, falling back to the default column. */
export function sortOf(
  sorter: { columnKey?: unknown; order?: 'ascend' | 'descend' | null } | undefined,
  fallback: string,
): { orderBy: string; sort: 'asc' | 'desc' } {
  if (!sorter?.order) return { orderBy: fallback, sort: 'desc' };
  return { orderBy: String(sorter.columnKey ?? fallback), sort: sorter.order === 'ascend' ? 'asc' : 'desc' };
}
