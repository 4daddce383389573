import { keepPreviousData, skipToken, useQuery } from '@tanstack/react-query';
import { http, queryKey, useRefreshingMutation, type Page } from '@/api/core';
import type {
  EnergyScope,
  IncomingMainWrite,
  MeterChangeWrite,
  PlanAdd,
  PlanQuery,
  PlanRead,
  PlanUpdate,
  ProjectTariffWrite,
  RankingQuery,
  VersionAdd,
} from '@/api/schema';

export const energyKeys = {
  all: queryKey('energy'),
  chart: (scope: EnergyScope | null) => queryKey(...energyKeys.all, 'chart', scope),
  ranking: (query: RankingQuery | null) => queryKey(...energyKeys.all, 'ranking', query),
  table: (scope: EnergyScope | null) => queryKey(...energyKeys.all, 'table', scope),
  quarters: (device: number | null, date: string) => queryKey(...energyKeys.all, 'quarters', device, date),
  meterChanges: (device: number | null) => queryKey(...energyKeys.all, 'meter-changes', device),
};

export const tariffKeys = {
  all: queryKey('tariffs'),
  list: (query: PlanQuery) => queryKey(...tariffKeys.all, 'list', query),
  single: (sysno: number | null) => queryKey(...tariffKeys.all, 'single', sysno),
  projects: () => queryKey(...tariffKeys.all, 'projects'),
};

export const energyApi = {
  chart: (scope: EnergyScope) => http.post('/api/CustomerEnergy/GetEnergyChart', scope),
  ranking: (query: RankingQuery) => http.post('/api/CustomerEnergy/GetEnergyRanking', query),
  table: (scope: EnergyScope) => http.post('/api/CustomerEnergy/GetEnergyTable', scope),
  quarters: (device_sysno: number, date: string) =>
    http.post('/api/CustomerEnergy/GetDeviceQuarters', { device_sysno, date }),
  setIncomingMain: (body: IncomingMainWrite) => http.put('/api/CustomerEnergy/SetIncomingMain', body),
  meterChanges: (device_sysno: number) =>
    http.get('/api/CustomerEnergy/GetMeterChangeList', { params: { device_sysno } }),
  addMeterChange: (body: MeterChangeWrite) => http.post('/api/CustomerEnergy/AddMeterChange', body),
  deleteMeterChange: (sysno: number) => http.delete('/api/CustomerEnergy/DeleteMeterChange', { params: { sysno } }),
};

export const tariffApi = {
  list: (query: PlanQuery): Promise<Page<PlanRead>> => http.post('/api/CustomerEnergy/GetTariffPlanList', query),
  single: (sysno: number) => http.get('/api/CustomerEnergy/GetTariffPlan', { params: { sysno } }),
  add: (body: PlanAdd) => http.post('/api/CustomerEnergy/AddTariffPlan', body),
  update: (body: PlanUpdate) => http.put('/api/CustomerEnergy/UpdateTariffPlan', body),
  remove: (sysno: number) => http.delete('/api/CustomerEnergy/DeleteTariffPlan', { params: { sysno } }),
  addVersion: (body: VersionAdd) => http.post('/api/CustomerEnergy/AddTariffVersion', body),
  removeVersion: (sysno: number) => http.delete('/api/CustomerEnergy/DeleteTariffVersion', { params: { sysno } }),
  projects: () => http.get('/api/CustomerEnergy/GetProjectTariffList'),
  setProject: (body: ProjectTariffWrite) => http.put('/api/CustomerEnergy/SetProjectTariff', body),
};

// `null` (no project chosen, no device opened yet) asks for nothing.

/** The chart, its totals and comparisons. */
export function useEnergyChart(scope: EnergyScope | null) {
  return useQuery({
    queryKey: energyKeys.chart(scope),
    queryFn: scope ? () => energyApi.chart(scope) : skipToken,
    placeholderData: keepPreviousData,
  });
}

export function useEnergyRanking(query: RankingQuery | null) {
  return useQuery({
    queryKey: energyKeys.ranking(query),
    queryFn: query ? () => energyApi.ranking(query) : skipToken,
    placeholderData: keepPreviousData,
  });
}

export function useEnergyTable(scope: EnergyScope | null) {
  return useQuery({
    queryKey: energyKeys.table(scope),
    queryFn: scope ? () => energyApi.table(scope) : skipToken,
    placeholderData: keepPreviousData,
  });
}

/** A device's quarter-hours of one day. */
export function useDeviceQuarters(device: number | null, date: string) {
  return useQuery({
    queryKey: energyKeys.quarters(device, date),
    queryFn: device !== null ? () => energyApi.quarters(device, date) : skipToken,
  });
}

export function useMeterChanges(device: number | null) {
  return useQuery({
    queryKey: energyKeys.meterChanges(device),
    queryFn: device !== null ? () => energyApi.meterChanges(device) : skipToken,
  });
}

/** Mains and meter changes change the figures: every energy query is fetched again. */
function useEnergyMutation<V, R>(call: (vars: V) => Promise<R>) {
  return useRefreshingMutation(call, [energyKeys.all]);
}

export const useSetIncomingMain = () => useEnergyMutation(energyApi.setIncomingMain);
export const useAddMeterChange = () => useEnergyMutation(energyApi.addMeterChange);
export const useDeleteMeterChange = () => useEnergyMutation(energyApi.deleteMeterChange);

export function useTariffPlans(query: PlanQuery) {
  return useQuery({ queryKey: tariffKeys.list(query), queryFn: () => tariffApi.list(query), placeholderData: keepPreviousData });
}

export function useTariffPlan(sysno: number | null) {
  return useQuery({
    queryKey: tariffKeys.single(sysno),
    queryFn: sysno !== null ? () => tariffApi.single(sysno) : skipToken,
  });
}

export function useProjectTariffs() {
  return useQuery({ queryKey: tariffKeys.projects(), queryFn: tariffApi.projects });
}

/** A plan change refreshes the plans, the projects' plans and the figures whose cost it may set. */
function useTariffMutation<V, R>(call: (vars: V) => Promise<R>) {
  return useRefreshingMutation(call, [tariffKeys.all, energyKeys.all]);
}

export const useAddTariffPlan = () => useTariffMutation(tariffApi.add);
export const useUpdateTariffPlan = () => useTariffMutation(tariffApi.update);
export const useDeleteTariffPlan = () => useTariffMutation(tariffApi.remove);
export const useAddTariffVersion = () => useTariffMutation(tariffApi.addVersion);
export const useDeleteTariffVersion = () => useTariffMutation(tariffApi.removeVersion);
export const useSetProjectTariff = () => useTariffMutation(tariffApi.setProject);

