import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { queryKey, useRefreshingMutation } from '@/api/core';
import type { AccountQuery, BillQuery, LedgerQuery, OrderQuery } from '@/api/schema';
import { billingApi } from './api';

export { billingApi } from './api';

export const billingKeys = {
  all: queryKey('billing'),
  options: () => queryKey(...billingKeys.all, 'options'),
  accounts: (query: AccountQuery) => queryKey(...billingKeys.all, 'accounts', query),
  detail: (sysno: number) => queryKey(...billingKeys.all, 'detail', sysno),
  ledger: (query: LedgerQuery) => queryKey(...billingKeys.all, 'ledger', query),
  bills: (query: BillQuery) => queryKey(...billingKeys.all, 'bills', query),
  orders: (query: OrderQuery) => queryKey(...billingKeys.all, 'orders', query),
  rule: () => queryKey(...billingKeys.all, 'rule'),
};

export function useBillingOptions() {
  return useQuery({ queryKey: billingKeys.options(), queryFn: billingApi.options, staleTime: Infinity });
}

export function useAccounts(query: AccountQuery) {
  return useQuery({ queryKey: billingKeys.accounts(query), queryFn: () => billingApi.accounts(query), placeholderData: keepPreviousData });
}

export function useAccountDetail(sysno: number | null) {
  return useQuery({
    queryKey: billingKeys.detail(sysno ?? 0),
    queryFn: () => billingApi.detail(sysno ?? 0),
    enabled: sysno !== null,
  });
}

export function useLedger(query: LedgerQuery, enabled = true) {
  return useQuery({ queryKey: billingKeys.ledger(query), queryFn: () => billingApi.ledger(query), placeholderData: keepPreviousData, enabled });
}

export function useBills(query: BillQuery, enabled = true) {
  return useQuery({ queryKey: billingKeys.bills(query), queryFn: () => billingApi.bills(query), placeholderData: keepPreviousData, enabled });
}

export function useOrders(query: OrderQuery, enabled = true) {
  return useQuery({ queryKey: billingKeys.orders(query), queryFn: () => billingApi.orders(query), placeholderData: keepPreviousData, enabled });
}

export function useCutoffRule() {
  return useQuery({ queryKey: billingKeys.rule(), queryFn: billingApi.rule });
}

/** A billing change; every billing query is fetched again before it settles (balances move everywhere). */
export function useBillingMutation<V, R>(call: (vars: V) => Promise<R>) {
  return useRefreshingMutation(call, [billingKeys.all]);
}
