import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, queryKey, type Page } from '@/api/core';
import type { AlarmQuery, AlarmRead, AlarmStatQuery, NoticeQuery, NoticeRead } from '@/api/schema';

/** The new-notice call is polled this often (spec: every 30 s). */
export const NOTICE_POLL_MS = 30_000;

export const noticeKeys = {
  all: queryKey('notices'),
  poll: () => queryKey(...noticeKeys.all, 'poll'),
  list: (query: NoticeQuery) => queryKey(...noticeKeys.all, 'list', query),
};

export const alarmKeys = {
  all: queryKey('alarms'),
  list: (query: AlarmQuery) => queryKey(...alarmKeys.all, 'list', query),
  single: (sysno: number) => queryKey(...alarmKeys.all, 'single', sysno),
  types: () => queryKey(...alarmKeys.all, 'types'),
  statistics: (query: AlarmStatQuery) => queryKey(...alarmKeys.all, 'statistics', query),
};

export const noticeApi = {
  poll: () => http.get('/api/CustomerNoctice/GetNewNoticeNew'),
  list: (query: NoticeQuery): Promise<Page<NoticeRead>> => http.post('/api/CustomerNoctice/GetNoticeList', query),
  /** Every notice the filters keep, as an Excel workbook. */
  exportList: (query: NoticeQuery) => http.download('/api/CustomerNoctice/ExportNoticeList', query),
  batchRead: (sysnos: number[]) =>
    http.post('/api/CustomerNoctice/Cus_BatchReadNotice', { notice_sysno: sysnos, is_read: 1 }),
};

export const alarmApi = {
  list: (query: AlarmQuery): Promise<Page<AlarmRead>> => http.post('/api/CustomerAlarm/GetAlarmList', query),
  /** Every alarm the filters keep, as an Excel workbook. */
  exportList: (query: AlarmQuery) => http.download('/api/CustomerAlarm/ExportAlarmList', query),
  single: (sysno: number) => http.get('/api/CustomerAlarm/GetSingleAlarm', { params: { sysno } }),
  types: () => http.get('/api/CustomerAlarm/GetAlarmType'),
  process: (sysno: number[], remark: string) => http.post('/api/CustomerAlarm/ProcessAlarm', { sysno, remark }),
  statistics: (query: AlarmStatQuery) => http.post('/api/CustomerAlarm/GetAlarmStatistics', query),
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
