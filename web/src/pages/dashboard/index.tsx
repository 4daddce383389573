import { useCallback, useState } from 'react';
import { Empty, Result } from 'antd';
import { LinkOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useDashboardData } from '@/api/dashboard/queries';
import { dashboard as t } from '@/locales/zh-CN';
import { HeaderButton, LargeScreen } from './LargeScreen';
import { KioskLinks } from './KioskLinks';
import { screenTheme } from './themes';

/** 数据大屏 of the logged-in customer: live every 30 s, each project clickable to its monitoring view. */
export default function DashboardPage() {
  const navigate = useNavigate();
  const query = useDashboardData();
  const [linksOpen, setLinksOpen] = useState(false);
  const open = useCallback((sysno: number) => navigate(`/user-manage/devices-manage?node=project-${sysno}`), [navigate]);
  const data = query.data;
  if (!data) {
    return query.isError ? <Result status="warning" title={t.empty} /> : <div data-testid="dashboard" style={{ minHeight: 400 }} />;
  }
  const theme = screenTheme(data.screen.theme, data.screen.brand_color);
  return (
    <div data-testid="dashboard" data-fetching={query.isFetching}>
      {data.counts.project_count === 0 && <Empty description={t.empty} style={{ marginBottom: 12 }} />}
      <LargeScreen
        data={data}
        onOpenProject={open}
        actions={<HeaderButton theme={theme} onClick={() => setLinksOpen(true)} label={t.kiosk} icon={<LinkOutlined />} testId="kiosk-links" />}
      />
      <KioskLinks open={linksOpen} onClose={() => setLinksOpen(false)} />
    </div>
  );
}
