import { Card, Menu } from 'antd';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useBrand } from '@/brands/BrandContext';
import { activeKey, settingMenu, toMenuItems } from '@/router/menu';
import { useAppStore } from '@/store/app';
import { routeTitles } from '@/locales/zh-CN';

/** 系统管理: a left menu (a horizontal one on mobile) beside the chosen screen. */
export default function SettingLayout() {
  const { flags } = useBrand();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const mobile = useAppStore((s) => s.device === 'mobile');
  const entries = settingMenu(flags);
  const selected = activeKey(entries, pathname);
  const logsKey = entries.find((entry) => entry.children)?.key;

  return (
    <div style={{ display: 'flex', flexDirection: mobile ? 'column' : 'row', gap: 16, alignItems: 'flex-start' }}>
      <Card size="small" style={{ width: mobile ? '100%' : 200, flex: 'none' }} styles={{ body: { padding: 4 } }}>
        <Menu
          mode={mobile ? 'horizontal' : 'inline'}
          selectedKeys={selected ? [selected] : []}
          defaultOpenKeys={logsKey && !mobile ? [logsKey] : []}
          items={toMenuItems(entries)}
          onClick={({ key }) => navigate(key)}
          style={{ borderInlineEnd: 'none' }}
          aria-label={routeTitles.setting}
          data-testid="setting-menu"
        />
      </Card>
      <Card style={{ flex: 1, minWidth: 0, width: mobile ? '100%' : undefined }} styles={{ body: mobile ? { padding: 12 } : undefined }}>
        <Outlet />
      </Card>
    </div>
  );
}
