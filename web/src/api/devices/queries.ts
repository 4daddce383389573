import { keepPreviousData, useQueries, useQuery } from '@tanstack/react-query';
import { http, queryKey, useRefreshingMutation, type Page } from '@/api/core';
import { projectKeys } from '@/api/projects/queries';
import type { DeviceQuery, DeviceRead, DeviceUpdate } from '@/api/schema';

export const deviceKeys = {
  all: queryKey('devices'),
  list: (query: DeviceQuery) => queryKey(...deviceKeys.all, 'list', query),
  single: (sysno: number) => queryKey(...deviceKeys.all, 'single', sysno),
  trend: (sysno: number, hours: number) => queryKey(...deviceKeys.all, 'trend', sysno, hours),
  ofProject: (project: number) => queryKey(...deviceKeys.all, 'of-project', project),
};

/** The largest page the server gives. */
const MAX_PAGE_SIZE = 200;

export const deviceApi = {
  list: (query: DeviceQuery): Promise<Page<DeviceRead>> => http.post('/api/CustomerDevice/GetDeviceList', query),
  /** Every device the filters keep, with its latest values, as an Excel workbook. */
  exportList: (query: DeviceQuery) => http.download('/api/CustomerDevice/ExportDeviceList', query),
  single: (sysno: number) => http.get('/api/CustomerDevice/GetSingleDevice', { params: { sysno } }),
  update: (body: DeviceUpdate & { sysno: number }) => http.put('/api/CustomerDevice/UpdateDevice', body),
  remove: (sysno: number) => http.delete('/api/CustomerDevice/DeleteDevice', { params: { sysno } }),
  trend: (sysno: number, hours: number) => http.post('/api/CustomerDevice/GetDeviceTrend', { sysno, hours }),
  /** Every device of a project, however many pages that takes. */
  async ofProject(project_sysno: number): Promise<DeviceRead[]> {
    const query = { project_sysno, pageSize: MAX_PAGE_SIZE, orderBy: 'sysno', sort: 'asc' as const };
    const first = await deviceApi.list({ ...query, pageIndex: 1 });
    const pages = Math.ceil(first.totalCount / MAX_PAGE_SIZE);
    const rest = await Promise.all(
      Array.from({ length: Math.max(0, pages - 1) }, (_, i) => deviceApi.list({ ...query, pageIndex: i + 2 })),
    );
    return [first, ...rest].flatMap((page) => page.dataSource);
  },
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

/** Every device of each of `projects`, by project (undefined while loading); for pickers such as the energy tree. */
export function useProjectDevices(projects: number[]) {
  return useQueries({
    queries: projects.map((project) => ({
      queryKey: deviceKeys.ofProject(project),
      queryFn: () => deviceApi.ofProject(project),
      staleTime: 60_000,
    })),
    combine: (results) => new Map(projects.map((project, i) => [project, results[i]?.data])),
  });
}

/** A device change also changes the monitoring tree's counts. */
function useDeviceMutation<V, R>(call: (vars: V) => Promise<R>) {
  return useRefreshingMutation(call, [deviceKeys.all, projectKeys.tree()]);
}

export const useUpdateDevice = () => useDeviceMutation(deviceApi.update);
export const useDeleteDevice = () => useDeviceMutation(deviceApi.remove);
