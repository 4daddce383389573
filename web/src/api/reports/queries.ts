import { keepPreviousData, skipToken, useMutation, useQuery } from '@tanstack/react-query';
import { http, queryKey } from '@/api/core';
import type { EnergyReportQuery } from '@/api/schema';

export const reportKeys = {
  all: queryKey('reports'),
  energy: (query: EnergyReportQuery | null) => queryKey(...reportKeys.all, 'energy', query),
};

export const reportApi = {
  energy: (query: EnergyReportQuery) => http.post('/api/CustomerReport/GetEnergyReport', query),
  exportEnergy: (query: EnergyReportQuery) => http.download('/api/CustomerReport/ExportEnergyReport', query),
};

/** 能耗报表: totals, comparisons, chart points and one row per device, building or the project; `null` asks for nothing. */
export function useEnergyReport(query: EnergyReportQuery | null) {
  return useQuery({
    queryKey: reportKeys.energy(query),
    queryFn: query ? () => reportApi.energy(query) : skipToken,
    placeholderData: keepPreviousData,
  });
}

/** The energy report as an Excel file (the server has already shown why when it refuses). */
export function useExportEnergyReport() {
  return useMutation({ mutationFn: reportApi.exportEnergy });
}
