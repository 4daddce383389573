import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/core';
import type { Page } from '@/api/logs/types';
import { projectKeys } from '@/api/projects/queries';
import type { GatewayCreate, GatewayCreated, GatewayMove, GatewayQuery, GatewayRead, GatewaySecret, GatewayUpdate } from './types';

export const gatewayKeys = {
  all: ['gateways'] as const,
  list: (query: GatewayQuery) => [...gatewayKeys.all, 'list', query] as const,
};

export const gatewayApi = {
  list: (query: GatewayQuery) => http.post('/api/CustomerGateway/GetGatewayList', query) as Promise<Page<GatewayRead>>,
  add: (body: GatewayCreate) => http.post('/api/CustomerGateway/AddGateway', body) as Promise<GatewayCreated>,
  update: (body: GatewayUpdate) => http.put('/api/CustomerGateway/UpdateGateway', body) as Promise<GatewayRead>,
  move: (body: GatewayMove) => http.put('/api/CustomerGateway/MoveGateway', body) as Promise<GatewayRead>,
  resetSecret: (sysno: number) =>
    http.post('/api/CustomerGateway/ResetGatewaySecret', { sysno }) as Promise<GatewaySecret>,
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

/** A gateway change also changes project counts and the monitoring tree. */
function useGatewayMutation<V, R>(call: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: gatewayKeys.all }),
        client.invalidateQueries({ queryKey: projectKeys.all }),
      ]);
    },
  });
}

export const useAddGateway = () => useGatewayMutation(gatewayApi.add);
export const useUpdateGateway = () => useGatewayMutation(gatewayApi.update);
export const useMoveGateway = () => useGatewayMutation(gatewayApi.move);
export const useResetGatewaySecret = () => useGatewayMutation(gatewayApi.resetSecret);
export const useDeleteGateway = () => useGatewayMutation(gatewayApi.remove);
