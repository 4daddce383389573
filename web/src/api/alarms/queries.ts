import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/core';
import type { Page } from '@/api/logs/types';
import type {
  AlarmQuery,
  AlarmRead,
  AlarmStatistics,
  AlarmStatQuery,
  AlarmTypeRead,
  BatchReadResult,
  NoticePoll,
  NoticeQuery,
  NoticeRead,
  ProcessResult,
} from './types';

/** The new-notice call is polled this often (spec: every 30 s). */
export const NOTICE_POLL_MS = 30_000;

export const noticeKeys = {
  all: ['notices'] as const,
  poll: () => [...noticeKeys.all, 'poll'] as const,
  list: (query: NoticeQuery) => [...noticeKeys.all, 'list', query] as const,
};

export const alarmKeys = {
  all: ['alarms'] as const,
  list: (query: AlarmQuery) => [...alarmKeys.all, 'list', query] as const,
  single: (sysno: number) => [...alarmKeys.all, 'single', sysno] as const,
  types: () => [...alarmKeys.all, 'types'] as const,
  statistics: (query: AlarmStatQuery) => [...alarmKeys.all, 'statistics', query] as const,
};

export const noticeApi = {
  poll: () => http.get('/api/CustomerNoctice/GetNewNoticeNew') as Promise<NoticePoll>,
  list: (query: NoticeQuery) => http.post('/api/CustomerNoctice/GetNoticeList', query) as Promise<Page<NoticeRead>>,
  batchRead: (sysnos: number[]) =>
    http.post('/api/CustomerNoctice/Cus_BatchReadNotice', { notice_sysno: sysnos, is_read: 1 }) as Promise<BatchReadResult>,
};

export const alarmApi = {
  list: (query: AlarmQuery) => http.post('/api/CustomerAlarm/GetAlarmList', query) as Promise<Page<AlarmRead>>,
  single: (sysno: number) => http.get('/api/CustomerAlarm/GetSingleAlarm', { params: { sysno } }) as Promise<AlarmRead>,
  types: () => http.get('/api/CustomerAlarm/GetAlarmType') as Promise<AlarmTypeRead[]>,
  process: (sysno: number[], remark: string) =>
    http.post('/api/CustomerAlarm/ProcessAlarm', { sysno, remark }) as Promise<ProcessResult>,
  statistics: (query: AlarmStatQuery) =>
    http.post('/api/CustomerAlarm/GetAlarmStatistics', query) as Promise<AlarmStatistics>,
};

/** The 30-second notice poll; `enabled` is false outside the logged-in shell. */
export function useNoticePollQuery(enabled = true) {
  return useQuery({
    queryKey: noticeKeys.poll(),
    queryFn: noticeApi.poll,
    enabled,
    refetchInterval: NOTICE_POLL_MS,
    refetchIntervalInBackground: true,
    // Every answer may push a notice: never serve it from cache to a second observer.
    staleTime: 0,
  });
}

export function useNoticeList(query: NoticeQuery, enabled: boolean) {
  return useQuery({ queryKey: noticeKeys.list(query), queryFn: () => noticeApi.list(query), enabled, placeholderData: keepPreviousData });
}

export function useBatchReadNotices() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: noticeApi.batchRead,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: noticeKeys.all });
    },
  });
}

export function useAlarmList(query: AlarmQuery) {
  return useQuery({ queryKey: alarmKeys.list(query), queryFn: () => alarmApi.list(query), placeholderData: keepPreviousData });
}

export function useAlarmTypes() {
  return useQuery({ queryKey: alarmKeys.types(), queryFn: alarmApi.types, staleTime: Infinity });
}

export function useAlarmStatistics(query: AlarmStatQuery) {
  return useQuery({
    queryKey: alarmKeys.statistics(query),
    queryFn: () => alarmApi.statistics(query),
    placeholderData: keepPreviousData,
  });
}

export function useProcessAlarms() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ sysno, remark }: { sysno: number[]; remark: string }) => alarmApi.process(sysno, remark),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: alarmKeys.all });
      void client.invalidateQueries({ queryKey: noticeKeys.all });
    },
  });
}
