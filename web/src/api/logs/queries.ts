import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, queryKey, type Page } from '@/api/core';
import type {
  OfflineLogQuery,
  OfflineLogRead,
  OperationLogQuery,
  OperationLogRead,
  StatusLogQuery,
  StatusLogRead,
} from '@/api/schema';

export const logKeys = {
  all: queryKey('logs'),
  operationTypes: () => queryKey(...logKeys.all, 'operation-types'),
  operationList: (query: OperationLogQuery) => queryKey(...logKeys.all, 'operation-list', query),
  offlineList: (query: OfflineLogQuery) => queryKey(...logKeys.all, 'offline-list', query),
  offlineSingle: (sysno: number) => queryKey(...logKeys.all, 'offline-single', sysno),
  statusList: (query: StatusLogQuery) => queryKey(...logKeys.all, 'status-list', query),
  statusTypes: () => queryKey(...logKeys.all, 'status-types'),
};

export const operationLogApi = {
  list: (query: OperationLogQuery): Promise<Page<OperationLogRead>> =>
    http.post('/api/CustomerOperationLog/GetCustomerOperationLogList', query),
  exportList: (query: OperationLogQuery) =>
    http.download('/api/CustomerOperationLog/ExportCustomerOperationLogList', query),
  types: () => http.get('/api/CustomerOperationLog/GetCustomerOperationType'),
};

export function useOperationLogs(query: OperationLogQuery) {
  return useQuery({
    queryKey: logKeys.operationList(query),
    queryFn: () => operationLogApi.list(query),
    placeholderData: keepPreviousData,
  });
}

export function useOperationTypes() {
  return useQuery({ queryKey: logKeys.operationTypes(), queryFn: operationLogApi.types, staleTime: Infinity });
}

export const offlineLogApi = {
  list: (query: OfflineLogQuery): Promise<Page<OfflineLogRead>> =>
    http.post('/api/CustomerOfflineLog/GetOfflineLogList', query),
  exportList: (query: OfflineLogQuery) => http.download('/api/CustomerOfflineLog/ExportOfflineLogList', query),
  single: (sysno: number) => http.get('/api/CustomerOfflineLog/GetSingleOfflineLog', { params: { sysno } }),
};

export const statusLogApi = {
  list: (query: StatusLogQuery): Promise<Page<StatusLogRead>> =>
    http.post('/api/CustomerStatusLog/GetStatusLogList', query),
  exportList: (query: StatusLogQuery) => http.download('/api/CustomerStatusLog/ExportStatusLogList', query),
  types: () => http.get('/api/CustomerStatusLog/GetStatusType'),
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
