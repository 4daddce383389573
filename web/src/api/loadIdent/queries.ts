import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, queryKey, type Page } from '@/api/core';
import { useRefreshingMutation } from '@/api/core/mutation';
import type {
  LoadEventDetail,
  LoadEventQuery,
  LoadEventRead,
  LoadStatistics,
  LoadStatQuery,
  ModelAccuracy,
  PolicyRemove,
  PolicySetting,
  PolicyWrite,
  WhitelistWrite,
} from '@/api/schema';

const BASE = '/api/CustomerLoadIdentify';

export const loadKeys = {
  all: queryKey('load-ident'),
  list: (query: LoadEventQuery) => queryKey(...loadKeys.all, 'list', query),
  single: (sysno: number) => queryKey(...loadKeys.all, 'single', sysno),
  statistics: (query: LoadStatQuery) => queryKey(...loadKeys.all, 'statistics', query),
  policy: (project: number) => queryKey(...loadKeys.all, 'policy', project),
  accuracy: () => queryKey(...loadKeys.all, 'accuracy'),
};

export const loadApi = {
  list: (query: LoadEventQuery): Promise<Page<LoadEventRead>> => http.post(`${BASE}/GetLoadEventList`, query),
  /** Every event the filters keep, as an Excel workbook. */
  exportList: (query: LoadEventQuery) => http.download(`${BASE}/ExportLoadEventList`, query),
  single: (sysno: number): Promise<LoadEventDetail> => http.get(`${BASE}/GetLoadEvent`, { params: { sysno } }),
  statistics: (query: LoadStatQuery): Promise<LoadStatistics> => http.post(`${BASE}/GetLoadStatistics`, query),
  accuracy: (): Promise<ModelAccuracy> => http.get(`${BASE}/GetLoadModelAccuracy`),
  policy: (project_sysno: number): Promise<PolicySetting> => http.get(`${BASE}/GetLoadPolicy`, { params: { project_sysno } }),
  savePolicy: (body: PolicyWrite) => http.post(`${BASE}/SaveLoadPolicy`, body),
  removePolicy: (body: PolicyRemove) => http.post(`${BASE}/DeleteLoadPolicy`, body),
  saveWhitelist: (body: WhitelistWrite) => http.post(`${BASE}/SaveLoadWhitelist`, body),
  unlock: (sysno: number) => http.post(`${BASE}/UnlockLoadDevice`, { sysno }),
};

/** The identified events, refreshed every `refetchInterval` ms (new switch-ons keep arriving). */
export function useLoadEvents(query: LoadEventQuery, refetchInterval: number | false = false) {
  return useQuery({ queryKey: loadKeys.list(query), queryFn: () => loadApi.list(query), placeholderData: keepPreviousData, refetchInterval });
}

export function useLoadEvent(sysno: number | null) {
  return useQuery({ queryKey: loadKeys.single(sysno ?? 0), queryFn: () => loadApi.single(sysno ?? 0), enabled: sysno !== null });
}

export function useLoadStatistics(query: LoadStatQuery) {
  return useQuery({ queryKey: loadKeys.statistics(query), queryFn: () => loadApi.statistics(query), placeholderData: keepPreviousData });
}

export function useLoadPolicy(project: number | null) {
  return useQuery({ queryKey: loadKeys.policy(project ?? 0), queryFn: () => loadApi.policy(project ?? 0), enabled: project !== null });
}

/** The evaluation's figures shipped with the model: they change only with a new release. */
export function useModelAccuracy() {
  return useQuery({ queryKey: loadKeys.accuracy(), queryFn: loadApi.accuracy, staleTime: Infinity });
}

export const useSavePolicy = () => useRefreshingMutation(loadApi.savePolicy, [loadKeys.all]);
export const useRemovePolicy = () => useRefreshingMutation(loadApi.removePolicy, [loadKeys.all]);
export const useSaveWhitelist = () => useRefreshingMutation(loadApi.saveWhitelist, [loadKeys.all]);
export const useUnlock = () => useRefreshingMutation(loadApi.unlock, [loadKeys.all]);
