import { Tag, Typography } from 'antd';
import type { ListColumn } from '@/components/ListTable';
import type { OfflineLogRead } from '@/api/schema';
import { offlineLogs } from '@/locales/zh-CN';
import { EMPTY } from '@/utils/format';

export const offlineLogColumns: ListColumn<OfflineLogRead>[] = [
  {
    title: offlineLogs.kind,
    dataIndex: 'kind',
    key: 'kind',
    width: 70,
    rank: 3,
    render: (kind: string) => <Tag color={kind === 'gateway' ? 'purple' : 'blue'}>{offlineLogs.kinds[kind] ?? kind}</Tag>,
  },
  {
    title: offlineLogs.target,
    dataIndex: 'target_name',
    key: 'target_name',
    width: 170,
    keep: true,
    ellipsis: true,
    sorter: true,
    render: (name: string, row) => (row.device_id ? `${name}（#${row.device_id}）` : name),
  },
  {
    title: offlineLogs.gateway,
    key: 'gateway',
    width: 190,
    rank: 6,
    ellipsis: true,
    render: (_, row) => (
      <span title={`${row.gateway_name} ${row.gateway_sn}`}>
        {row.gateway_name}
        <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
          {row.gateway_sn}
        </Typography.Text>
      </span>
    ),
  },
  { title: offlineLogs.project, dataIndex: 'project_name', key: 'project_name', width: 150, ellipsis: true, rank: 5 },
  { title: offlineLogs.reason, dataIndex: 'reason_name', key: 'reason', width: 110, rank: 4 },
  { title: offlineLogs.offlineTime, dataIndex: 'offline_time', key: 'offline_time', width: 185, sorter: true, defaultSortOrder: 'descend', keep: 'wide' },
  {
    title: offlineLogs.onlineTime,
    dataIndex: 'online_time',
    key: 'online_time',
    width: 185,
    keep: 'wide',
    sorter: true,
    render: (time: string | null) => time ?? EMPTY,
  },
  { title: offlineLogs.duration, dataIndex: 'duration', key: 'duration_seconds', width: 110, sorter: true, rank: 2 },
  {
    title: offlineLogs.state,
    dataIndex: 'recovered',
    key: 'recovered',
    width: 90,
    keep: true,
    render: (recovered: number) =>
      recovered ? <Tag color="success">{offlineLogs.recovered}</Tag> : <Tag color="error">{offlineLogs.stillOffline}</Tag>,
  },
];
