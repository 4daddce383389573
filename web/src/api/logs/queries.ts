import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '@/api/core';
import type { OperationLogQuery, OperationLogRow, Option, Page } from './types';

export const logKeys = {
  all: ['logs'] as const,
  operationTypes: () => [...logKeys.all, 'operation-types'] as const,
  operationList: (query: OperationLogQuery) => [...logKeys.all, 'operation-list', query] as const,
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
