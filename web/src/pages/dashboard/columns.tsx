import { Button, Progress } from 'antd';
import type { ListColumn } from '@/components/ListTable';
import type { ProjectDashboardRow } from '@/api/schema';
import { dashboard } from '@/locales/zh-CN';

/** Share of online equipment in whole percent; an empty project counts as fully online. */
export function onlineRate(online: number, total: number): number {
  return total > 0 ? Math.round((online / total) * 100) : 100;
}

const rate = (online: number, total: number) => (
  <Progress
    percent={onlineRate(online, total)}
    size="small"
    status={online < total ? 'exception' : 'success'}
    format={() => `${online}/${total}`}
  />
);

export function dashboardColumns(onOpen: (row: ProjectDashboardRow) => void): ListColumn<ProjectDashboardRow>[] {
  return [
    { title: dashboard.projectName, dataIndex: 'name', key: 'name', width: 160, ellipsis: true, keep: true },
    { title: dashboard.address, dataIndex: 'address', key: 'address', ellipsis: true, width: 200, rank: 9 },
    { title: dashboard.gatewayState, key: 'gateways', width: 180, rank: 2, render: (_, r) => rate(r.gateway_online_count, r.gateway_count) },
    { title: dashboard.deviceState, key: 'devices', width: 180, keep: 'wide', render: (_, r) => rate(r.device_online_count, r.device_count) },
    {
      title: '',
      key: 'open',
      width: 96,
      keep: true,
      fixed: 'right',
      render: (_, row) => (
        <Button type="link" size="small" onClick={() => onOpen(row)}>
          {dashboard.open}
        </Button>
      ),
    },
  ];
}
