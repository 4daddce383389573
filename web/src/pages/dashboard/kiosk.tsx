import { Result } from 'antd';
import { useParams } from 'react-router';
import { useKioskData } from '@/api/dashboard/queries';
import { dashboard as t } from '@/locales/zh-CN';
import { LargeScreen } from './LargeScreen';

/** /kiosk/<token>: the large screen of a kiosk link, without a login, read-only, filling the window. */
export default function KioskPage() {
  const { token = '' } = useParams();
  const query = useKioskData(token);
  if (query.data) return <LargeScreen data={query.data} fill />;
  if (query.isError) {
    return (
      <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: '#040c1c' }} data-testid="kiosk-refused">
        <Result status="403" title={<span style={{ color: '#e6f0ff' }}>{t.kioskRefused}</span>} subTitle={<span style={{ color: '#a6b8d8' }}>{t.kioskRefusedHelp}</span>} />
      </div>
    );
  }
  return <div style={{ minHeight: '100vh', background: '#040c1c' }} data-testid="kiosk-loading" />;
}
