import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { common, errorPages } from '@/locales/zh-CN';

export default function NotFound() {
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={errorPages.notFoundTitle}
      subTitle={errorPages.notFound}
      extra={<Button type="primary" onClick={() => navigate('/')}>{common.backHome}</Button>}
    />
  );
}
