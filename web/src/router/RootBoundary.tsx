import { useRouteError } from 'react-router';
import { Button, Result } from 'antd';
import { common } from '@/locales/zh-CN';

/** Last resort when a page throws while rendering (e.g. a chunk failed to load). */
export function RootBoundary() {
  const error = useRouteError();
  const detail = error instanceof Error ? error.message : common.hasError;
  return (
    <Result
      status="error"
      title={common.hasError}
      subTitle={detail}
      extra={
        <Button type="primary" onClick={() => window.location.assign('/')}>
          {common.backHome}
        </Button>
      }
    />
  );
}
