import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { common, errorPages } from '@/locales/zh-CN';

export default function Unauthorized() {
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title={errorPages.unauthorizedTitle}
      subTitle={errorPages.unauthorized}
      extra={<Button type="primary" onClick={() => navigate('/')}>{common.backHome}</Button>}
    />
  );
}
