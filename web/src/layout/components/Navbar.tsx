import { useState } from 'react';
import { Button, Dropdown, Tooltip } from 'antd';
import { DownOutlined, MenuFoldOutlined, MenuUnfoldOutlined, MonitorOutlined, SettingOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useMyInfo } from '@/api/account/queries';
import { getLoginName } from '@/api/core';
import { NoticeBell } from '@/components/NoticeBell';
import { NoticeDialog } from '@/components/NoticeDialog';
import { useNoticePoll } from '@/hooks/useNoticePoll';
import { account, layout } from '@/locales/zh-CN';
import { useRouteTitle } from '@/router/TitleSync';
import { appActions, useAppStore } from '@/store/app';
import { EditInfoModal } from '../account/EditInfoModal';
import { PasswordModal } from '../account/PasswordModal';
import { TransferModal } from '../account/TransferModal';
import { useLogout } from '../account/useLogout';
import styles from '../layout.module.css';

type Dialog = 'edit' | 'password' | 'transfer' | 'notices' | null;

/** Top bar: sidebar toggle, page title, 数据监控, the alarm bell, settings and the user menu. */
export function Navbar({ onOpenSettings }: { onOpenSettings: () => void }) {
  const navigate = useNavigate();
  const opened = useAppStore((s) => s.sidebarOpened);
  const mobile = useAppStore((s) => s.device === 'mobile');
  const title = useRouteTitle();
  const me = useMyInfo();
  const logout = useLogout();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const { unreadCount, holder, refresh } = useNoticePoll(() => setDialog('notices'));

  return (
    <div className={styles.navbar}>
      <Button
        type="text"
        aria-label={layout.toggleSidebar}
        icon={opened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        onClick={appActions.toggleSidebar}
        data-testid="hamburger"
      />
      <div className={styles.navTitle}>{title}</div>
      <div className={styles.navRight}>
        <Button type="primary" icon={<MonitorOutlined />} onClick={() => navigate('/dashboard')} data-testid="data-monitor">
          {!mobile && layout.dataMonitor}
        </Button>
        <NoticeBell count={unreadCount} onOpen={() => setDialog('notices')} />
        <Tooltip title={layout.settings}>
          <Button type="text" shape="circle" icon={<SettingOutlined />} onClick={onOpenSettings} aria-label={layout.settings} />
        </Tooltip>
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'edit', label: account.editInfo },
              { key: 'password', label: account.changePassword },
              { key: 'transfer', label: account.transferAccount },
              { type: 'divider' },
              { key: 'logout', label: account.logout },
            ],
            onClick: ({ key }) => {
              if (key === 'logout') void logout(true);
              else setDialog(key as Dialog);
            },
          }}
        >
          <Button type="text" data-testid="user-menu">
            <UserOutlined />
            {!mobile && <span className={styles.userName}>{me.data?.name || getLoginName()}</span>}
            <DownOutlined />
          </Button>
        </Dropdown>
      </div>
      <EditInfoModal open={dialog === 'edit'} onClose={close} />
      <PasswordModal open={dialog === 'password'} onClose={close} />
      <TransferModal open={dialog === 'transfer'} onClose={close} />
      <NoticeDialog open={dialog === 'notices'} onClose={close} onProcessed={refresh} />
      {holder}
    </div>
  );
}
