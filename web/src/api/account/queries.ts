import { useQuery } from '@tanstack/react-query';
import { encodeLoginPassword, getToken, http, queryKey, setSession, useRefreshingMutation } from '@/api/core';
import type {
  CustomerUpdate,
  FindPasswordBody,
  LoginResult,
  RegisterBody,
  TransformBody,
  UpdatePasswordBody,
} from '@/api/schema';
import type { TransferSmsTarget } from './types';

export const accountKeys = {
  all: queryKey('account'),
  myInfo: () => queryKey(...accountKeys.all, 'my-info'),
  customer: () => queryKey(...accountKeys.all, 'customer'),
};

/** Keeps the token of a successful login in session storage. */
function remember(call: Promise<LoginResult>): Promise<LoginResult> {
  return call.then((result) => {
    setSession(result.token, result.name || result.account || result.mobile);
    return result;
  });
}

export const accountApi = {
  loginByPass: (mobile: string, password: string) =>
    remember(http.post('/api/CustomerCenter/LoginByPass', { mobile, password: encodeLoginPassword(password) })),
  sendLoginSms: (mobile: string) => http.post('/api/CustomerCenter/SendLoginSms', { mobile }),
  loginBySms: (mobile: string, validate_code: string) =>
    remember(http.post('/api/CustomerCenter/LoginBySms', { mobile, validate_code })),
  loginByLink: (param: string) => remember(http.post('/api/CustomerCenter/LoginByLink', { param })),
  logout: () => http.post('/api/CustomerCenter/LoginOut', {}),
  sendRegisterSms: (mobile: string) => http.post('/api/CustomerCenter/SendRegisterSms', { mobile }),
  validateRegisterSms: (mobile: string, validate_code: string) =>
    http.post('/api/CustomerCenter/ValidateRegisterSms', { mobile, validate_code }),
  register: (body: RegisterBody) => remember(http.post('/api/CustomerCenter/Register', body)),
  sendFindPasswordSms: (mobile: string) => http.post('/api/CustomerCenter/SendFindPassWordSms', { mobile }),
  findPassword: (body: FindPasswordBody) => http.put('/api/CustomerCenter/FindPassWord', body),
  updatePassword: (body: UpdatePasswordBody) => http.put('/api/CustomerCenter/UpdatePassWord', body),
  sendUpdatePasswordSms: (mobile: string) => http.post('/api/CustomerCenter/SendUpdatePassWordSms', { mobile }),
  sendTransformSms: (mobile: string, type: TransferSmsTarget) =>
    http.post('/api/CustomerCenter/SendTransformSms', { mobile, type }),
  transform: (body: TransformBody) => http.post('/api/CustomerCenter/TransformUsername', body),
  myInfo: () => http.post('/api/CustomerCenter/MyInfo', {}),
  singleCustomer: () => http.post('/api/CustomerCenter/GetSingleCustomer', {}),
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
  return useRefreshingMutation(accountApi.updateCustomer, [accountKeys.all]);
}
