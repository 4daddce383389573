import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { OfflineLogRead } from '@/api/schema';
import { offlineLogs } from '@/locales/zh-CN';
import { EMPTY } from '@/utils/format';

export const offlineLogColumns: ColumnsType<OfflineLogRead> = [
  {
    title: offlineLogs.kind,
    dataIndex: 'kind',
    key: 'kind',
    width: 70,
    render: (kind: string) => <Tag color={kind === 'gateway' ? 'purple' : 'blue'}>{offlineLogs.kinds[kind] ?? kind}</Tag>,
  },
  {
    title: offlineLogs.target,
    dataIndex: 'target_name',
    key: 'target_name',
    width: 170,
    ellipsis: true,
    sorter: true,
    render: (name: string, row) => (row.device_id ? `${name}（#${row.device_id}）` : name),
  },
  {
    title: offlineLogs.gateway,
    key: 'gateway',
    width: 190,
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
  { title: offlineLogs.project, dataIndex: 'project_name', key: 'project_name', width: 150, ellipsis: true },
  { title: offlineLogs.reason, dataIndex: 'reason_name', key: 'reason', width: 110 },
  { title: offlineLogs.offlineTime, dataIndex: 'offline_time', key: 'offline_time', width: 170, sorter: true, defaultSortOrder: 'descend' },
  {
    title: offlineLogs.onlineTime,
    dataIndex: 'online_time',
    key: 'online_time',
    width: 170,
    sorter: true,
    render: (time: string | null) => time ?? EMPTY,
  },
  { title: offlineLogs.duration, dataIndex: 'duration', key: 'duration_seconds', width: 110, sorter: true },
  {
    title: offlineLogs.state,
    dataIndex: 'recovered',
    key: 'recovered',
    width: 90,
    render: (recovered: number) =>
      recovered ? <Tag color="success">{offlineLogs.recovered}</Tag> : <Tag color="error">{offlineLogs.stillOffline}</Tag>,
  },
];
