import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '@/api/core';
import type { Page } from '@/api/logs/types';
import type {
  NotificationRead,
  NotificationUpdate,
  NotificationWrite,
  RechargeQuery,
  RechargeRead,
  SmsAccountRead,
  TemplatePreview,
  TemplateRead,
  UsageQuery,
  UsageRead,
} from './types';

export const smsKeys = {
  all: ['sms'] as const,
  rules: () => [...smsKeys.all, 'rules'] as const,
  templates: () => [...smsKeys.all, 'templates'] as const,
  account: () => [...smsKeys.all, 'account'] as const,
  usage: (query: UsageQuery) => [...smsKeys.all, 'usage', query] as const,
  recharges: (query: RechargeQuery) => [...smsKeys.all, 'recharges', query] as const,
};

export const smsApi = {
  rules: () => http.post('/api/CustomerSms/GetNotificationList', {} as never) as Promise<NotificationRead[]>,
  addRule: (body: NotificationWrite) => http.post('/api/CustomerSms/AddNotification', body) as Promise<NotificationRead>,
  updateRule: (body: NotificationUpdate) => http.put('/api/CustomerSms/UpdateNotification', body) as Promise<NotificationRead>,
  deleteRule: (sysno: number) => http.delete('/api/CustomerSms/DeleteNotification', { params: { sysno } }),
  templates: () => http.get('/api/CustomerSms/GetTemplateList') as Promise<TemplateRead[]>,
  saveTemplate: (template_key: string, content: string) =>
    http.put('/api/CustomerSms/UpdateTemplate', { template_key, content }) as Promise<TemplateRead>,
  preview: (template_key: string, content: string) =>
    http.post('/api/CustomerSms/PreviewTemplate', { template_key, content }) as Promise<TemplatePreview>,
  account: () => http.get('/api/CustomerSms/GetSmsAccount') as Promise<SmsAccountRead>,
  usage: (query: UsageQuery) => http.post('/api/CustomerSms/GetUsageList', query) as Promise<Page<UsageRead>>,
  recharges: (query: RechargeQuery) => http.post('/api/CustomerSms/GetRechargeList', query) as Promise<Page<RechargeRead>>,
  recharge: (quantity: number, remark: string | null) =>
    http.post('/api/CustomerSms/AddRecharge', { quantity, remark }) as Promise<RechargeRead>,
  confirm: (sysno: number, approve: boolean) =>
    http.post('/api/CustomerSms/ConfirmRecharge', { sysno, approve }) as Promise<RechargeRead>,
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
