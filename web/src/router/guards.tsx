import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { Spin } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, clearSession, getToken, NetworkError } from '@/api/core';
import { useMyInfo } from '@/api/account/queries';
import { common } from '@/locales/zh-CN';
import { useMessage } from '@/components/Feedback';

/** Paths a visitor without a token may open. */
export const WHITE_LIST = ['/login', '/auth-redirect', '/register', '/findpsw'];

export function loginPathFor(pathWithSearch: string): string {
  return `/login?redirect=${encodeURIComponent(pathWithSearch)}`;
}

/** Where to go after login: the redirect parameter when it is a path of this app, else the root. */
export function safeRedirect(redirect: string | null): string {
  // A backslash, blank or control character after the slash is read by browsers as `//`: another site.
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || /[\\\s\x00-\x1f]/.test(redirect)) return '/';
  if (WHITE_LIST.some((path) => redirect === path || redirect.startsWith(`${path}?`))) return '/';
  return redirect;
}

/** Everything below needs a token and the customer's own record; otherwise back to login. */
export function RequireAuth() {
  const location = useLocation();
  const token = getToken();
  const message = useMessage();
  const queryClient = useQueryClient();
  const info = useMyInfo();
  const failed = Boolean(token) && info.isError;

  useEffect(() => {
    if (!failed) return;
    const error = info.error;
    clearSession();
    queryClient.removeQueries();
    // The client has already shown API and network failures; anything else is shown here.
    if (!(error instanceof ApiError) && !(error instanceof NetworkError)) {
      message.error(error?.message || common.hasError);
    }
  }, [failed, info.error, message, queryClient]);

  if (!token || failed) {
    return <Navigate to={loginPathFor(`${location.pathname}${location.search}`)} replace />;
  }
  if (info.isPending) {
    return <Spin fullscreen />;
  }
  return <Outlet />;
}

/** Login and the other public forms send a logged-in visitor to the root. */
export function PublicOnly() {
  if (getToken()) return <Navigate to="/" replace />;
  return <Outlet />;
}
