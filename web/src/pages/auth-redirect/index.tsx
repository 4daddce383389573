import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Result, Spin } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { accountApi } from '@/api/account/queries';
import { account, common } from '@/locales/zh-CN';

/** Landing of a passwordless login link: /auth-redirect?param=... */
export default function AuthRedirectPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const param = params.get('param');
  const [failed, setFailed] = useState<string | null>(param ? null : account.authRedirectMissing);
  const started = useRef(false);

  useEffect(() => {
    if (!param || started.current) return;
    started.current = true;
    accountApi
      .loginByLink(param)
      .then(() => {
        queryClient.clear();
        navigate('/', { replace: true });
      })
      .catch((error: unknown) => setFailed(error instanceof Error ? error.message : common.hasError));
  }, [param, navigate, queryClient]);

  if (failed) {
    return (
      <Result status="warning" title={account.authRedirectFailed} subTitle={failed} extra={<Link to="/login">{common.backLogin}</Link>} />
    );
  }
  return <Spin fullscreen tip={account.authRedirecting} />;
}
