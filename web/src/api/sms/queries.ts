import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, queryKey, type Page } from '@/api/core';
import type {
  NotificationUpdate,
  NotificationWrite,
  RechargeQuery,
  RechargeRead,
  UsageQuery,
  UsageRead,
} from '@/api/schema';

export const smsKeys = {
  all: queryKey('sms'),
  rules: () => queryKey(...smsKeys.all, 'rules'),
  templates: () => queryKey(...smsKeys.all, 'templates'),
  account: () => queryKey(...smsKeys.all, 'account'),
  usage: (query: UsageQuery) => queryKey(...smsKeys.all, 'usage', query),
  recharges: (query: RechargeQuery) => queryKey(...smsKeys.all, 'recharges', query),
};

export const smsApi = {
  rules: () => http.post('/api/CustomerSms/GetNotificationList', {}),
  addRule: (body: NotificationWrite) => http.post('/api/CustomerSms/AddNotification', body),
  updateRule: (body: NotificationUpdate) => http.put('/api/CustomerSms/UpdateNotification', body),
  deleteRule: (sysno: number) => http.delete('/api/CustomerSms/DeleteNotification', { params: { sysno } }),
  templates: () => http.get('/api/CustomerSms/GetTemplateList'),
  saveTemplate: (template_key: string, content: string) =>
    http.put('/api/CustomerSms/UpdateTemplate', { template_key, content }),
  preview: (template_key: string, content: string) =>
    http.post('/api/CustomerSms/PreviewTemplate', { template_key, content }),
  account: () => http.get('/api/CustomerSms/GetSmsAccount'),
  usage: (query: UsageQuery): Promise<Page<UsageRead>> => http.post('/api/CustomerSms/GetUsageList', query),
  exportUsage: (query: UsageQuery) => http.download('/api/CustomerSms/ExportUsageList', query),
  recharges: (query: RechargeQuery): Promise<Page<RechargeRead>> => http.post('/api/CustomerSms/GetRechargeList', query),
  exportRecharges: (query: RechargeQuery) => http.download('/api/CustomerSms/ExportRechargeList', query),
  recharge: (quantity: number, remark: string | null) =>
    http.post('/api/CustomerSms/AddRecharge', { quantity, remark }),
  confirm: (sysno: number, approve: boolean) => http.post('/api/CustomerSms/ConfirmRecharge', { sysno, approve }),
};

export function useSmsRules() {
  return useQuery({ queryKey: smsKeys.rules(), queryFn: smsApi.rules });
}

export function useSmsTemplates() {
  return useQuery({ queryKey: smsKeys.templates(), queryFn: smsApi.templates });
}

export function useSmsAccount() {
  return useQuery({ queryKey: smsKeys.account(), queryFn: smsApi.account });
}

export function useSmsUsage(query: UsageQuery) {
  return useQuery({ queryKey: smsKeys.usage(query), queryFn: () => smsApi.usage(query), placeholderData: keepPreviousData });
}

export function useRecharges(query: RechargeQuery, enabled = true) {
  return useQuery({
    queryKey: smsKeys.recharges(query),
    queryFn: () => smsApi.recharges(query),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** A mutation that refreshes every SMS query when it succeeds. */
export function useSmsMutation<A, R>(fn: (args: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: smsKeys.all });
    },
  });
}
