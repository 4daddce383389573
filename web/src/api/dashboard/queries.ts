import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, queryKey, useRefreshingMutation } from '@/api/core';
import type { KioskLinkCreate, KioskLinkQuery } from '@/api/schema';

/** The large screen asks this often (the issue asks for at most 30 s). */
export const DASHBOARD_REFRESH_MS = 30_000;

export const dashboardKeys = {
  all: queryKey('dashboard'),
  data: () => queryKey(...dashboardKeys.all, 'data'),
  kiosk: (token: string) => queryKey(...dashboardKeys.all, 'kiosk', token),
  links: (query: KioskLinkQuery) => queryKey(...dashboardKeys.all, 'links', query),
};

export const dashboardApi = {
  data: () => http.post('/api/CustomerDashboard/GetDashboardData', {}),
  kiosk: (token: string) => http.post('/api/Kiosk/GetDashboardData', { token }),
  links: (query: KioskLinkQuery) => http.post('/api/CustomerDashboard/GetKioskLinkList', query),
  addLink: (body: KioskLinkCreate) => http.post('/api/CustomerDashboard/AddKioskLink', body),
  revokeLink: (sysno: number) => http.post('/api/CustomerDashboard/RevokeKioskLink', { sysno }),
};

/** The logged-in customer's large screen, fetched again every `refetchInterval` ms. */
export function useDashboardData(refetchInterval = DASHBOARD_REFRESH_MS) {
  return useQuery({ queryKey: dashboardKeys.data(), queryFn: dashboardApi.data, refetchInterval, placeholderData: keepPreviousData });
}

/** The large screen of a kiosk link; a refused link (revoked, expired) is not asked again. */
export function useKioskData(token: string, refetchInterval = DASHBOARD_REFRESH_MS) {
  return useQuery({
    queryKey: dashboardKeys.kiosk(token),
    queryFn: () => dashboardApi.kiosk(token),
    refetchInterval: (query) => (query.state.status === 'error' ? false : refetchInterval),
    retry: false,
    placeholderData: keepPreviousData,
  });
}

export function useKioskLinks(query: KioskLinkQuery, enabled: boolean) {
  return useQuery({ queryKey: dashboardKeys.links(query), queryFn: () => dashboardApi.links(query), enabled, placeholderData: keepPreviousData });
}

export const useAddKioskLink = () => useRefreshingMutation(dashboardApi.addLink, [dashboardKeys.all]);
export const useRevokeKioskLink = () => useRefreshingMutation(dashboardApi.revokeLink, [dashboardKeys.all]);
