import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, queryKey, useRefreshingMutation, type Page } from '@/api/core';
import { projectKeys } from '@/api/projects/queries';
import type { GatewayCreate, GatewayMove, GatewayQuery, GatewayRead, GatewayUpdate } from '@/api/schema';

export const gatewayKeys = {
  all: queryKey('gateways'),
  list: (query: GatewayQuery) => queryKey(...gatewayKeys.all, 'list', query),
  refusals: (sysno: number) => queryKey(...gatewayKeys.all, 'refusals', sysno),
};

export const gatewayApi = {
  list: (query: GatewayQuery): Promise<Page<GatewayRead>> => http.post('/api/CustomerGateway/GetGatewayList', query),
  exportList: (query: GatewayQuery) => http.download('/api/CustomerGateway/ExportGatewayList', query),
  refusals: (sysno: number) => http.get('/api/CustomerGateway/GetGatewayRefusals', { params: { sysno } }),
  add: (body: GatewayCreate) => http.post('/api/CustomerGateway/AddGateway', body),
  update: (body: GatewayUpdate) => http.put('/api/CustomerGateway/UpdateGateway', body),
  move: (body: GatewayMove) => http.put('/api/CustomerGateway/MoveGateway', body),
  resetSecret: (sysno: number) => http.post('/api/CustomerGateway/ResetGatewaySecret', { sysno }),
  remove: (sysno: number) => http.delete('/api/CustomerGateway/DeleteGateway', { params: { sysno } }),
};

/** The gateway list; it refreshes every `refetchInterval` ms so the online state stays current. */
export function useGatewayList(query: GatewayQuery, refetchInterval: number | false = false) {
  return useQuery({
    queryKey: gatewayKeys.list(query),
    queryFn: () => gatewayApi.list(query),
    placeholderData: keepPreviousData,
    refetchInterval,
  });
}

/** 接入日志: what the platform refused of a gateway's messages, by reason (null: nothing asked). */
export function useGatewayRefusals(sysno: number | null) {
  return useQuery({
    queryKey: gatewayKeys.refusals(sysno ?? 0),
    queryFn: () => gatewayApi.refusals(sysno ?? 0),
    enabled: sysno !== null,
    refetchInterval: 5000, // the counts reach the database every few seconds
  });
}

/** A gateway change also changes project counts and the monitoring tree. */
function useGatewayMutation<V, R>(call: (vars: V) => Promise<R>) {
  return useRefreshingMutation(call, [gatewayKeys.all, projectKeys.all]);
}

export const useAddGateway = () => useGatewayMutation(gatewayApi.add);
export const useUpdateGateway = () => useGatewayMutation(gatewayApi.update);
export const useMoveGateway = () => useGatewayMutation(gatewayApi.move);
export const useResetGatewaySecret = () => useGatewayMutation(gatewayApi.resetSecret);
export const useDeleteGateway = () => useGatewayMutation(gatewayApi.remove);
