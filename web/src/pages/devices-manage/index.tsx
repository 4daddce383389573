import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Card, Drawer, Empty, Pagination, Spin } from 'antd';
import { ApartmentOutlined } from '@ant-design/icons';
import { ListTable } from '@/components/ListTable';
import { formatTime } from '@/utils/format';
import { deviceApi, useDeviceList } from '@/api/devices/queries';
import type { DeviceQuery, DeviceRead } from '@/api/schema';
import { useProjectTree } from '@/api/projects/queries';
import { ExportListButton } from '@/components/ExportListButton';
import { monitoring, routeTitles } from '@/locales/zh-CN';
import { useAppStore } from '@/store/app';
import { ALL_KEY, ProjectTree } from './components/ProjectTree';
import { DeviceCard } from './components/DeviceCard';
import { DeviceDrawer } from './components/DeviceDrawer';
import { DeviceToolbar, type DeviceFilters, type ViewMode } from './components/DeviceToolbar';
import { deviceColumns } from './columns';
import { scopeOfKey } from './tree';
import styles from './devices.module.css';

/** Live values are polled this often; the page itself never reloads. */
export const REFRESH_MS = 5000;
const PAGE_SIZES = [12, 24, 48, 96];

/** 设备监控: the site tree on the left, live device cards or a table on the right. */
export default function DevicesManagePage() {
  const mobile = useAppStore((s) => s.device === 'mobile');
  const [params] = useSearchParams();
  // The dashboard opens a project here with ?node=project-<sysno>.
  const [treeKey, setTreeKey] = useState(() => params.get('node') ?? ALL_KEY);
  const [filters, setFilters] = useState<DeviceFilters>({ keyword: '', online: null, switch_state: null });
  const [view, setView] = useState<ViewMode>('cards');
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 24 });
  const [opened, setOpened] = useState<DeviceRead | null>(null);
  // On a phone the devices come first; the tree waits in a drawer.
  const [treeOpen, setTreeOpen] = useState(false);

  const tree = useProjectTree(REFRESH_MS);
  const query: DeviceQuery = {
    ...scopeOfKey(treeKey),
    keyword: filters.keyword || null,
    online: filters.online,
    switch_state: filters.switch_state,
    pageIndex: page.pageIndex,
    pageSize: page.pageSize,
    orderBy: 'sysno',
    sort: 'asc',
  };
  const list = useDeviceList(query, REFRESH_MS);
  const devices = list.data?.dataSource ?? [];
  const total = list.data?.totalCount ?? 0;
  const refreshedAt = list.dataUpdatedAt ? formatTime(list.dataUpdatedAt, 'HH:mm:ss') : null;

  function narrow(next: () => void) {
    next();
    setPage((p) => ({ ...p, pageIndex: 1 }));
  }

  const pager = (
    <Pagination
      className={styles.pager}
      current={page.pageIndex}
      pageSize={page.pageSize}
      total={total}
      showSizeChanger
      pageSizeOptions={PAGE_SIZES}
      showTotal={(n) => monitoring.summary(n, devices.filter((d) => d.online !== 0).length)}
      onChange={(pageIndex, pageSize) => setPage({ pageIndex: pageSize === page.pageSize ? pageIndex : 1, pageSize })}
      size={mobile ? 'small' : undefined}
    />
  );

  const projectTree = (
    <ProjectTree
      nodes={tree.data}
      loading={tree.isPending}
      selectedKey={treeKey}
      onSelect={(key) => {
        setTreeOpen(false);
        narrow(() => setTreeKey(key));
      }}
    />
  );

  return (
    <div className={`${styles.layout} ${mobile ? styles.layoutMobile : ''}`} data-testid="devices-manage">
      {mobile ? (
        <Drawer placement="left" open={treeOpen} onClose={() => setTreeOpen(false)} title={monitoring.treeTitle} size={300}>
          {projectTree}
        </Drawer>
      ) : (
        <Card size="small" title={monitoring.treeTitle} className={styles.side} styles={{ body: { padding: 8 } }}>
          <div className={styles.sideBody}>{projectTree}</div>
        </Card>
      )}
      <Card
        size="small"
        className={styles.main}
        title={routeTitles['devices-manage']}
        extra={
          <>
            {mobile && (
              <Button size="small" icon={<ApartmentOutlined />} onClick={() => setTreeOpen(true)} data-testid="tree-open">
                {monitoring.treeTitle}
              </Button>
            )}
            <ExportListButton download={() => deviceApi.exportList(query)} fallbackName={monitoring.exportName} />
          </>
        }
      >
        <DeviceToolbar
          filters={filters}
          onChange={(next) => narrow(() => setFilters(next))}
          view={view}
          onViewChange={setView}
          refreshedAt={refreshedAt}
          refreshSeconds={REFRESH_MS / 1000}
        />
        {view === 'table' ? (
          <ListTable<DeviceRead>
            tableId="devices-manage"
            rowKey="sysno"
            size="small"
            columns={deviceColumns(setOpened)}
            dataSource={devices}
            loading={list.isPending}
            pagination={false}
            data-testid="device-table"
          />
        ) : list.isPending ? (
          <Spin style={{ display: 'block', padding: '60px 0' }} />
        ) : devices.length === 0 ? (
          <Empty description={monitoring.empty} />
        ) : (
          <div className={styles.grid}>
            {devices.map((device) => (
              <DeviceCard key={device.sysno} device={device} onOpen={setOpened} />
            ))}
          </div>
        )}
        {total > 0 && pager}
      </Card>
      <DeviceDrawer device={opened} refetchInterval={REFRESH_MS} onClose={() => setOpened(null)} />
    </div>
  );
}
