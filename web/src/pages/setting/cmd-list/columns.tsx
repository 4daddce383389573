import { Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { CommandRead } from '@/api/schema';
import { CommandStatusTag } from '@/components/control/CommandStatusTag';
import { commandLog } from '@/locales/zh-CN';

export const commandColumns: ColumnsType<CommandRead> = [
  { title: commandLog.time, dataIndex: 'create_time', key: 'create_time', width: 170, sorter: true, defaultSortOrder: 'descend' },
  { title: commandLog.target, dataIndex: 'target_name', key: 'target_name', width: 150, ellipsis: true, sorter: true },
  {
    title: commandLog.gateway,
    dataIndex: 'gateway_sn',
    key: 'gateway_sn',
    width: 170,
    render: (sn: string, row) => `${sn} · #${row.device_id}`,
  },
  { title: commandLog.project, dataIndex: 'project_name', key: 'project_name', width: 130, ellipsis: true },
  { title: commandLog.action, dataIndex: 'action_name', key: 'action', width: 90, sorter: true },
  { title: commandLog.source, dataIndex: 'source_name', key: 'source', width: 160, ellipsis: true },
  { title: commandLog.operator, dataIndex: 'operator', key: 'operator', width: 170, ellipsis: true },
  {
    title: commandLog.status,
    dataIndex: 'status_name',
    key: 'status',
    width: 100,
    sorter: true,
    render: (_name: string, row) => <CommandStatusTag command={row} testId="command-status" />,
  },
  {
    title: commandLog.reason,
    dataIndex: 'reason',
    key: 'reason',
    ellipsis: true,
    render: (reason: string | null) => reason ?? <Typography.Text type="secondary">—</Typography.Text>,
  },
  { title: commandLog.answerTime, dataIndex: 'answer_time', key: 'answer_time', width: 170 },
  {
    title: commandLog.duration,
    dataIndex: 'duration_ms',
    key: 'duration_ms',
    width: 100,
    render: (ms: number | null) => (ms === null ? '—' : commandLog.ms(ms)),
  },
];
