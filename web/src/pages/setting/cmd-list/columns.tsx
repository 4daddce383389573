import { Typography } from 'antd';
import type { ListColumn } from '@/components/ListTable';
import type { CommandRead } from '@/api/schema';
import { CommandStatusTag } from '@/components/control/CommandStatusTag';
import { commandLog } from '@/locales/zh-CN';

export const commandColumns: ListColumn<CommandRead>[] = [
  { title: commandLog.time, dataIndex: 'create_time', key: 'create_time', width: 185, sorter: true, defaultSortOrder: 'descend', keep: true },
  { title: commandLog.target, dataIndex: 'target_name', key: 'target_name', width: 150, ellipsis: true, sorter: true, keep: 'wide' },
  {
    title: commandLog.gateway,
    dataIndex: 'gateway_sn',
    key: 'gateway_sn',
    width: 170,
    rank: 6,
    render: (sn: string, row) => `${sn} · #${row.device_id}`,
  },
  { title: commandLog.project, dataIndex: 'project_name', key: 'project_name', width: 130, ellipsis: true, rank: 7 },
  { title: commandLog.action, dataIndex: 'action_name', key: 'action', width: 90, sorter: true, keep: 'wide' },
  { title: commandLog.source, dataIndex: 'source_name', key: 'source', width: 160, ellipsis: true, rank: 3 },
  { title: commandLog.operator, dataIndex: 'operator', key: 'operator', width: 170, ellipsis: true, rank: 4 },
  {
    title: commandLog.status,
    dataIndex: 'status_name',
    key: 'status',
    width: 100,
    keep: true,
    sorter: true,
    render: (_name: string, row) => <CommandStatusTag command={row} testId="command-status" />,
  },
  {
    title: commandLog.reason,
    dataIndex: 'reason',
    key: 'reason',
    ellipsis: true,
    width: 200,
    rank: 2,
    render: (reason: string | null) => reason ?? <Typography.Text type="secondary">—</Typography.Text>,
  },
  { title: commandLog.answerTime, dataIndex: 'answer_time', key: 'answer_time', width: 185, rank: 5 },
  {
    title: commandLog.duration,
    dataIndex: 'duration_ms',
    key: 'duration_ms',
    width: 100,
    rank: 1,
    render: (ms: number | null) => (ms === null ? '—' : commandLog.ms(ms)),
  },
];
