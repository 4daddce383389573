import { useRouteError } from 'react-router';
import { Button } from 'antd';
import { common } from '@/locales/zh-CN';

/** Last resort when a page throws while rendering (e.g. a chunk failed to load); kept light for the first load. */
export function RootBoundary() {
  const error = useRouteError();
  const detail = error instanceof Error ? error.message : common.hasError;
  return (
    <div role="alert" style={{ textAlign: 'center', padding: '80px 16px' }}>
      <h2>{common.hasError}</h2>
      <p style={{ color: '#666' }}>{detail}</p>
      <Button type="primary" onClick={() => window.location.assign('/')}>
        {common.backHome}
      </Button>
    </div>
  );
}
