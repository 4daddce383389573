import { useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { App as AntdApp } from 'antd';
import { useBrand } from '@/brands/BrandContext';
import { appActions, SIDEBAR_COLLAPSED_WIDTH, SIDEBAR_WIDTH, useAppStore } from '@/store/app';
import { useSettings } from '@/store/settings';
import { Navbar } from './components/Navbar';
import { SettingsDrawer } from './components/SettingsDrawer';
import { Sidebar } from './components/Sidebar';
import { TagsView } from './components/TagsView';
import { useResponsive } from './useResponsive';
import styles from './layout.module.css';

/** The logged-in shell: sidebar, top bar, tab history, page and footer. */
export default function AppLayout() {
  useResponsive();
  const { pathname } = useLocation();
  const brand = useBrand();
  const opened = useAppStore((s) => s.sidebarOpened);
  const device = useAppStore((s) => s.device);
  const { tagsView, fixedHeader } = useSettings((s) => s);
  const [settingsOpen, setSettingsOpen] = useState(false);

  useEffect(() => {
    if (device === 'mobile' && opened) appActions.closeSidebar(false);
    // Only a navigation closes the mobile drawer, not opening it.
  }, [pathname]);

  const marginLeft = device === 'mobile' ? 0 : opened ? SIDEBAR_WIDTH : SIDEBAR_COLLAPSED_WIDTH;

  // antd's <App> (message, modal, notification via App.useApp) lives here rather than at the
  // root, so the login page does not load the modal and notification code.
  return (
    <AntdApp component={false}>
      <div className={styles.wrapper} data-device={device} data-testid="app-layout">
        <Sidebar />
        <div className={styles.main} style={{ marginLeft }}>
          <div className={fixedHeader ? styles.fixedHeader : undefined}>
            <Navbar onOpenSettings={() => setSettingsOpen(true)} />
            {tagsView && <TagsView />}
          </div>
          <main className={styles.content}>
            <Outlet />
          </main>
          {brand.footer && <footer className={styles.footer}>{brand.footer}</footer>}
        </div>
        <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      </div>
    </AntdApp>
  );
}
