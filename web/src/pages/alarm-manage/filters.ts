import type { AlarmQuery, AlarmRead } from '@/api/schema';
import { timeRange, type TimeRange } from '@/utils/listQuery';

export interface AlarmFilters {
  project_sysno?: number | null;
  alarm_type?: string | null;
  state?: 0 | 1 | null;
  process_state?: 0 | 1 | null;
  range?: TimeRange;
  keyword?: string | null;
}

/** The list request for the filter form: empty filters are sent as null. */
export function toQuery(filters: AlarmFilters, page: { pageIndex: number; pageSize: number }): AlarmQuery {
  return {
    pageIndex: page.pageIndex,
    pageSize: page.pageSize,
    project_sysno: filters.project_sysno ?? null,
    alarm_type: filters.alarm_type || null,
    state: filters.state ?? null,
    process_state: filters.process_state ?? null,
    ...timeRange(filters.range),
    keyword: filters.keyword?.trim() || null,
    orderBy: 'start_time',
    sort: 'desc',
  };
}

/** Only alarms not yet processed can be processed. */
export function processable(rows: Pick<AlarmRead, 'sysno' | 'process_state'>[], keys: number[]): number[] {
  return rows.filter((r) => keys.includes(r.sysno) && r.process_state === 0).map((r) => r.sysno);
}

/** `1小时5分` style text for a duration in seconds. */
export function durationText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  if (days) return `${days}天${hours ? `${hours}小时` : ''}`;
  if (hours) return `${hours}小时${minutes ? `${minutes}分` : ''}`;
  if (minutes) return `${minutes}分${s % 60 ? `${s % 60}秒` : ''}`;
  return `${s}秒`;
}
