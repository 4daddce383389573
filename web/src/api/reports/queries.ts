import { keepPreviousData, skipToken, useMutation, useQuery } from '@tanstack/react-query';
import { http, queryKey, type DownloadedFile } from '@/api/core';
import type { AlarmReportQuery, AvailabilityReportQuery, ControlReportQuery, EnergyReportQuery } from '@/api/schema';

export const reportKeys = {
  all: queryKey('reports'),
  energy: (query: EnergyReportQuery | null) => queryKey(...reportKeys.all, 'energy', query),
  alarm: (query: AlarmReportQuery | null) => queryKey(...reportKeys.all, 'alarm', query),
  availability: (query: AvailabilityReportQuery | null) => queryKey(...reportKeys.all, 'availability', query),
  control: (query: ControlReportQuery | null) => queryKey(...reportKeys.all, 'control', query),
};

export const reportApi = {
  energy: (query: EnergyReportQuery) => http.post('/api/CustomerReport/GetEnergyReport', query),
  alarm: (query: AlarmReportQuery) => http.post('/api/CustomerReport/GetAlarmReport', query),
  availability: (query: AvailabilityReportQuery) => http.post('/api/CustomerReport/GetAvailabilityReport', query),
  control: (query: ControlReportQuery) => http.post('/api/CustomerReport/GetControlReport', query),
  /** Each report's file (Excel or PDF, as the query's `format` says). */
  exports: {
    energy: (query: EnergyReportQuery) => http.download('/api/CustomerReport/ExportEnergyReport', query),
    alarm: (query: AlarmReportQuery) => http.download('/api/CustomerReport/ExportAlarmReport', query),
    availability: (query: AvailabilityReportQuery) => http.download('/api/CustomerReport/ExportAvailabilityReport', query),
    control: (query: ControlReportQuery) => http.download('/api/CustomerReport/ExportControlReport', query),
  },
};

/** The reports and the body each one's screen and export take. */
export interface ReportQueries {
  energy: EnergyReportQuery;
  alarm: AlarmReportQuery;
  availability: AvailabilityReportQuery;
  control: ControlReportQuery;
}
export type ReportKind = keyof ReportQueries;
export type ReportFormat = NonNullable<EnergyReportQuery['format']>;

/** 能耗报表: totals, comparisons, chart points and one row per device, building or the project; `null` asks for nothing. */
export function useEnergyReport(query: EnergyReportQuery | null) {
  return useQuery({
    queryKey: reportKeys.energy(query),
    queryFn: query ? () => reportApi.energy(query) : skipToken,
    placeholderData: keepPreviousData,
  });
}

/** A report as a file (the server has already shown why when it refuses). */
export function useExportReport<K extends ReportKind>(kind: K) {
  // Each kind's export takes its own query: the map's values are one function per key.
  const send = reportApi.exports[kind] as (query: ReportQueries[K]) => Promise<DownloadedFile>;
  return useMutation({ mutationFn: send });
}

/** 告警报表: counts by type, level, building, device and time, durations, processing, the longest open; `null` asks for nothing. */
export function useAlarmReport(query: AlarmReportQuery | null) {
  return useQuery({ queryKey: reportKeys.alarm(query), queryFn: query ? () => reportApi.alarm(query) : skipToken, placeholderData: keepPreviousData });
}

/** 在线率报表: online rates and offline spells of every gateway and device; `null` asks for nothing. */
export function useAvailabilityReport(query: AvailabilityReportQuery | null) {
  return useQuery({
    queryKey: reportKeys.availability(query),
    queryFn: query ? () => reportApi.availability(query) : skipToken,
    placeholderData: keepPreviousData,
  });
}

/** 控制报表: commands by kind and outcome, per gateway, and the timed tasks' runs; `null` asks for nothing. */
export function useControlReport(query: ControlReportQuery | null) {
  return useQuery({ queryKey: reportKeys.control(query), queryFn: query ? () => reportApi.control(query) : skipToken, placeholderData: keepPreviousData });
}
