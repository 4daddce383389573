import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, queryKey, useRefreshingMutation, type Page } from '@/api/core';
import { projectKeys } from '@/api/projects/queries';
import type { DeviceQuery, DeviceRead, DeviceUpdate } from '@/api/schema';

export const deviceKeys = {
  all: queryKey('devices'),
  list: (query: DeviceQuery) => queryKey(...deviceKeys.all, 'list', query),
  single: (sysno: number) => queryKey(...deviceKeys.all, 'single', sysno),
  trend: (sysno: number, hours: number) => queryKey(...deviceKeys.all, 'trend', sysno, hours),
};

export const deviceApi = {
  list: (query: DeviceQuery): Promise<Page<DeviceRead>> => http.post('/api/CustomerDevice/GetDeviceList', query),
  single: (sysno: number) => http.get('/api/CustomerDevice/GetSingleDevice', { params: { sysno } }),
  update: (body: DeviceUpdate & { sysno: number }) => http.put('/api/CustomerDevice/UpdateDevice', body),
  remove: (sysno: number) => http.delete('/api/CustomerDevice/DeleteDevice', { params: { sysno } }),
  trend: (sysno: number, hours: number) => http.post('/api/CustomerDevice/GetDeviceTrend', { sysno, hours }),
};

/** Devices with their live values, polled every `refetchInterval` ms without blanking the view. */
export function useDeviceList(query: DeviceQuery, refetchInterval: number | false = false) {
  return useQuery({
    queryKey: deviceKeys.list(query),
    queryFn: () => deviceApi.list(query),
    placeholderData: keepPreviousData,
    refetchInterval,
  });
}

export function useDevice(sysno: number | null, refetchInterval: number | false = false) {
  return useQuery({
    queryKey: deviceKeys.single(sysno ?? 0),
    queryFn: () => deviceApi.single(sysno ?? 0),
    enabled: sysno !== null,
    refetchInterval,
  });
}

export function useDeviceTrend(sysno: number | null, hours = 24) {
  return useQuery({
    queryKey: deviceKeys.trend(sysno ?? 0, hours),
    queryFn: () => deviceApi.trend(sysno ?? 0, hours),
    enabled: sysno !== null,
    refetchInterval: 60_000,
  });
}

/** A device change also changes the monitoring tree's counts. */
function useDeviceMutation<V, R>(call: (vars: V) => Promise<R>) {
  return useRefreshingMutation(call, [deviceKeys.all, projectKeys.tree()]);
}

export const useUpdateDevice = () => useDeviceMutation(deviceApi.update);
export const useDeleteDevice = () => useDeviceMutation(deviceApi.remove);
