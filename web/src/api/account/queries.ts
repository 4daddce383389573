import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { encodeLoginPassword, getToken, http, setSession } from '@/api/core';
import type { CustomerInfo, CustomerUpdate, LoginResult, PasswordUpdate, TransferRequest } from './types';

export const accountKeys = {
  all: ['account'] as const,
  myInfo: () => [...accountKeys.all, 'my-info'] as const,
  customer: () => [...accountKeys.all, 'customer'] as const,
};

function remember(result: LoginResult): LoginResult {
  setSession(result.token, result.name || result.account || result.mobile);
  return result;
}

export const accountApi = {
  loginByPass: (mobile: string, password: string): Promise<LoginResult> =>
    http.post('/api/CustomerCenter/LoginByPass', { mobile, password: encodeLoginPassword(password) }).then(remember),
  sendLoginSms: (mobile: string) => http.post('/api/CustomerCenter/SendLoginSms', { mobile }),
  loginBySms: (mobile: string, validate_code: string): Promise<LoginResult> =>
    http.post('/api/CustomerCenter/LoginBySms', { mobile, validate_code }).then(remember),
  loginByLink: (param: string): Promise<LoginResult> =>
    http.post('/api/CustomerCenter/LoginByLink', { param }).then(remember),
  logout: () => http.post('/api/CustomerCenter/LoginOut', {}),
  sendRegisterSms: (mobile: string) => http.post('/api/CustomerCenter/SendRegisterSms', { mobile }),
  validateRegisterSms: (mobile: string, validate_code: string) =>
    http.post('/api/CustomerCenter/ValidateRegisterSms', { mobile, validate_code }),
  register: (body: { mobile: string; validate_code: string; password: string; name: string }): Promise<LoginResult> =>
    http.post('/api/CustomerCenter/Register', body).then(remember),
  sendFindPasswordSms: (mobile: string) => http.post('/api/CustomerCenter/SendFindPassWordSms', { mobile }),
  findPassword: (body: { mobile: string; validate_code: string; new_password: string }) =>
    http.put('/api/CustomerCenter/FindPassWord', body),
  updatePassword: (body: PasswordUpdate) => http.put('/api/CustomerCenter/UpdatePassWord', body),
  sendUpdatePasswordSms: (mobile: string) => http.post('/api/CustomerCenter/SendUpdatePassWordSms', { mobile }),
  sendTransformSms: (mobile: string, type: number) => http.post('/api/CustomerCenter/SendTransformSms', { mobile, type }),
  transform: (body: TransferRequest) => http.post('/api/CustomerCenter/TransformUsername', body),
  myInfo: (): Promise<CustomerInfo> => http.post('/api/CustomerCenter/MyInfo', {}),
  singleCustomer: (): Promise<CustomerInfo> => http.post('/api/CustomerCenter/GetSingleCustomer', {}),
  updateCustomer: (body: CustomerUpdate) => http.put('/api/CustomerCenter/UpdateCustomer', body),
};

/** The logged-in customer; the route guard waits for it. */
export function useMyInfo() {
  return useQuery({
    queryKey: accountKeys.myInfo(),
    queryFn: accountApi.myInfo,
    enabled: Boolean(getToken()),
    retry: false,
    staleTime: 5 * 60_000,
  });
}

/** The editable profile, fetched fresh each time the edit dialog opens. */
export function useCustomerProfile(enabled: boolean) {
  return useQuery({ queryKey: accountKeys.customer(), queryFn: accountApi.singleCustomer, enabled, retry: false });
}

export function useUpdateCustomer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: accountApi.updateCustomer,
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.all }),
  });
}
