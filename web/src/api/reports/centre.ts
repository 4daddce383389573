import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, queryKey, type Page } from '@/api/core';
import type {
  JobQuery,
  ReportJobCreate,
  ReportJobRead,
  SubscriptionQuery,
  SubscriptionRead,
  SubscriptionSave,
} from '@/api/schema';

/** How often the report centre looks again while a file is being written. */
export const JOB_POLL_MS = 2000;

export const centreKeys = {
  all: queryKey('report-centre'),
  jobs: (query: JobQuery) => queryKey(...centreKeys.all, 'jobs', query),
  subscriptions: (query: SubscriptionQuery) => queryKey(...centreKeys.all, 'subscriptions', query),
};

export const centreApi = {
  jobs: (query: JobQuery): Promise<Page<ReportJobRead>> => http.post('/api/CustomerReport/GetReportJobList', query),
  create: (body: ReportJobCreate) => http.post('/api/CustomerReport/CreateReportJob', body),
  download: (sysno: number) => http.download('/api/CustomerReport/DownloadReportFile', { sysno }),
  remove: (sysnos: number[]) => http.post('/api/CustomerReport/DeleteReportJob', { sysnos }),
  subscriptions: (query: SubscriptionQuery): Promise<Page<SubscriptionRead>> =>
    http.post('/api/CustomerReport/GetReportSubscriptionList', query),
  save: (body: SubscriptionSave) => http.post('/api/CustomerReport/SaveReportSubscription', body),
  removeSubscription: (sysno: number) => http.delete('/api/CustomerReport/DeleteReportSubscription', { params: { sysno } }),
};

/** Whether a page of jobs still has one waiting or being written (then the list refreshes itself). */
export function hasActiveJobs(page: Page<ReportJobRead> | undefined): boolean {
  return page?.dataSource.some((job) => job.status === 'queued' || job.status === 'running') ?? false;
}

/** 报表中心: the caller's report files, refreshed every JOB_POLL_MS while one is in progress. */
export function useReportJobs(query: JobQuery) {
  return useQuery({
    queryKey: centreKeys.jobs(query),
    queryFn: () => centreApi.jobs(query),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (hasActiveJobs(q.state.data) ? JOB_POLL_MS : false),
  });
}

/** The caller's scheduled reports. */
export function useSubscriptions(query: SubscriptionQuery) {
  return useQuery({ queryKey: centreKeys.subscriptions(query), queryFn: () => centreApi.subscriptions(query), placeholderData: keepPreviousData });
}

/** Refetch every report-centre list (after a change). */
export function useCentreRefresh() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: centreKeys.all });
}

/** Queue a report file; the report centre lists it at once. */
export function useCreateReportJob() {
  const refresh = useCentreRefresh();
  return useMutation({ mutationFn: centreApi.create, onSuccess: refresh });
}
