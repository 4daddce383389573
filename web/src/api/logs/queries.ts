import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '@/api/core';
import type {
  OfflineLogQuery,
  OfflineLogRead,
  OperationLogQuery,
  OperationLogRow,
  Option,
  Page,
  StatusLogQuery,
  StatusLogRead,
  StatusTypeOption,
} from './types';

export const logKeys = {
  all: ['logs'] as const,
  operationTypes: () => [...logKeys.all, 'operation-types'] as const,
  operationList: (query: OperationLogQuery) => [...logKeys.all, 'operation-list', query] as const,
  offlineList: (query: OfflineLogQuery) => [...logKeys.all, 'offline-list', query] as const,
  offlineSingle: (sysno: number) => [...logKeys.all, 'offline-single', sysno] as const,
  statusList: (query: StatusLogQuery) => [...logKeys.all, 'status-list', query] as const,
  statusTypes: () => [...logKeys.all, 'status-types'] as const,
};

export function fetchOperationLogs(query: OperationLogQuery): Promise<Page<OperationLogRow>> {
  return http.post('/api/CustomerOperationLog/GetCustomerOperationLogList', query) as Promise<Page<OperationLogRow>>;
}

export function fetchOperationTypes(): Promise<Option[]> {
  return http.get('/api/CustomerOperationLog/GetCustomerOperationType') as Promise<Option[]>;
}

export function useOperationLogs(query: OperationLogQuery) {
  return useQuery({
    queryKey: logKeys.operationList(query),
    queryFn: () => fetchOperationLogs(query),
    placeholderData: keepPreviousData,
  });
}

export function useOperationTypes() {
  return useQuery({ queryKey: logKeys.operationTypes(), queryFn: fetchOperationTypes, staleTime: Infinity });
}

export const offlineLogApi = {
  list: (query: OfflineLogQuery) =>
    http.post('/api/CustomerOfflineLog/GetOfflineLogList', query) as Promise<Page<OfflineLogRead>>,
  single: (sysno: number) =>
    http.get('/api/CustomerOfflineLog/GetSingleOfflineLog', { params: { sysno } }) as Promise<OfflineLogRead>,
};

export const statusLogApi = {
  list: (query: StatusLogQuery) =>
    http.post('/api/CustomerStatusLog/GetStatusLogList', query) as Promise<Page<StatusLogRead>>,
  types: () => http.get('/api/CustomerStatusLog/GetStatusType') as Promise<StatusTypeOption[]>,
};

export function useOfflineLogs(query: OfflineLogQuery) {
  return useQuery({
    queryKey: logKeys.offlineList(query),
    queryFn: () => offlineLogApi.list(query),
    placeholderData: keepPreviousData,
  });
}

/** One offline record (the one a notice points at); `null` asks for nothing. */
export function useOfflineLog(sysno: number | null) {
  return useQuery({
    queryKey: logKeys.offlineSingle(sysno ?? 0),
    queryFn: () => offlineLogApi.single(sysno ?? 0),
    enabled: sysno !== null,
  });
}

export function useStatusLogs(query: StatusLogQuery) {
  return useQuery({
    queryKey: logKeys.statusList(query),
    queryFn: () => statusLogApi.list(query),
    placeholderData: keepPreviousData,
  });
}

export function useStatusTypes() {
  return useQuery({ queryKey: logKeys.statusTypes(), queryFn: statusLogApi.types, staleTime: Infinity });
}
