import { Drawer, Layout, Menu } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { useBrand } from '@/brands/BrandContext';
import { imageUrl } from '@/config/env';
import { activeKey, sidebarMenu, toMenuItems } from '@/router/menu';
import { appActions, SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH, useAppStore } from '@/store/app';
import { useSettings } from '@/store/settings';
import styles from '../layout.module.css';

function SidebarMenu({ collapsed }: { collapsed: boolean }) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const brand = useBrand();
  const showLogo = useSettings((s) => s.sidebarLogo);
  const entries = sidebarMenu(brand.flags);
  const selected = activeKey(entries, pathname);
  return (
    <>
      {showLogo && (
        <div className={styles.logo} onClick={() => navigate('/')} data-testid="sidebar-logo">
          <img src={brand.logo ? imageUrl(brand.logo) : '/favicon.svg'} alt="" />
          {!collapsed && <span>{brand.title || brand.product_name}</span>}
        </div>
      )}
      <Menu
        theme="dark"
        mode="inline"
        selectedKeys={selected ? [selected] : []}
        items={toMenuItems(entries)}
        onClick={({ key }) => navigate(key)}
      />
    </>
  );
}

/** Fixed sider on desktop (210 px, collapsible); a drawer on mobile. */
export function Sidebar() {
  const opened = useAppStore((s) => s.sidebarOpened);
  const device = useAppStore((s) => s.device);

  if (device === 'mobile') {
    return (
      <Drawer
        placement="left"
        open={opened}
        onClose={() => appActions.closeSidebar(false)}
        size={SIDEBAR_WIDTH}
        closable={false}
        styles={{ body: { padding: 0, background: '#001529' } }}
        rootClassName="pp-mobile-sidebar"
      >
        <SidebarMenu collapsed={false} />
      </Drawer>
    );
  }
  return (
    <Layout.Sider
      className={styles.sider}
      width={SIDEBAR_WIDTH}
      collapsedWidth={SIDEBAR_COLLAPSED_WIDTH}
      collapsed={!opened}
      trigger={null}
      collapsible
      data-testid="sidebar"
    >
      <SidebarMenu collapsed={!opened} />
    </Layout.Sider>
  );
}
