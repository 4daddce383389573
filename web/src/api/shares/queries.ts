import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, queryKey, useRefreshingMutation, type Page } from '@/api/core';
import { projectKeys } from '@/api/projects/queries';
import type { ShareCreate, ShareQuery, ShareRead, TransferCreate, TransferQuery, TransferRead } from '@/api/schema';

export const shareKeys = {
  all: queryKey('shares'),
  list: (query: ShareQuery) => queryKey(...shareKeys.all, 'list', query),
  transfers: (query: TransferQuery) => queryKey(...shareKeys.all, 'transfers', query),
};

export const shareApi = {
  list: (query: ShareQuery): Promise<Page<ShareRead>> => http.post('/api/CustomerProject/ShareProjectList', query),
  transfers: (query: TransferQuery): Promise<Page<TransferRead>> =>
    http.post('/api/CustomerProject/TransferProjectList', query),
  add: (body: ShareCreate) => http.post('/api/CustomerShare/AddShare', body),
  accept: (sysno: number) => http.post('/api/CustomerShare/AcceptShare', { sysno }),
  decline: (sysno: number) => http.post('/api/CustomerShare/DeclineShare', { sysno }),
  revoke: (sysno: number) => http.post('/api/CustomerShare/RevokeShare', { sysno }),
  leave: (sysno: number) => http.post('/api/CustomerShare/LeaveShare', { sysno }),
  sendTransferCode: (mobile: string) => http.post('/api/CustomerShare/SendTransferProjectSms', { mobile }),
  transfer: (body: TransferCreate) => http.post('/api/CustomerShare/TransferProject', body),
  acceptTransfer: (sysno: number) => http.post('/api/CustomerShare/AcceptTransfer', { sysno }),
  declineTransfer: (sysno: number) => http.post('/api/CustomerShare/DeclineTransfer', { sysno }),
  cancelTransfer: (sysno: number) => http.post('/api/CustomerShare/CancelTransfer', { sysno }),
};

export function useShareList(query: ShareQuery) {
  return useQuery({ queryKey: shareKeys.list(query), queryFn: () => shareApi.list(query), placeholderData: keepPreviousData });
}

export function useTransferList(query: TransferQuery) {
  return useQuery({
    queryKey: shareKeys.transfers(query),
    queryFn: () => shareApi.transfers(query),
    placeholderData: keepPreviousData,
  });
}

/** A share or transfer action: the share lists and every project query (access changed) reload. */
export function useShareAction<V>(call: (vars: V) => Promise<unknown>) {
  return useRefreshingMutation(call, [shareKeys.all, projectKeys.all]);
}
