import { Tag } from 'antd';
import type { ListColumn } from '@/components/ListTable';
import type { StatusLogRead } from '@/api/schema';
import { statusLogs } from '@/locales/zh-CN';

const TYPE_COLOR: Record<string, string> = { online: 'success', offline: 'error', switch_on: 'processing', switch_off: 'warning' };

export const statusLogColumns: ListColumn<StatusLogRead>[] = [
  { title: statusLogs.time, dataIndex: 'create_time', key: 'create_time', width: 185, sorter: true, defaultSortOrder: 'descend', keep: true },
  {
    title: statusLogs.type,
    dataIndex: 'status_type_name',
    key: 'status_type',
    width: 110,
    keep: true,
    sorter: true,
    render: (name: string, row) => <Tag color={TYPE_COLOR[row.status_type] ?? 'default'}>{name}</Tag>,
  },
  { title: statusLogs.target, dataIndex: 'target_name', key: 'target_name', width: 170, ellipsis: true, sorter: true, keep: 'wide' },
  { title: statusLogs.gateway, dataIndex: 'gateway_sn', key: 'gateway_sn', width: 150, rank: 5 },
  { title: statusLogs.project, dataIndex: 'project_name', key: 'project_name', width: 150, ellipsis: true, rank: 4 },
  { title: statusLogs.detail, dataIndex: 'detail', key: 'detail', ellipsis: true, width: 240, rank: 3 },
];
