import { ListTable } from '@/components/ListTable';
import type { CommandRead } from '@/api/schema';
import { commandLog } from '@/locales/zh-CN';
import { CommandStatusTag } from './CommandStatusTag';

/** Each device's result in a task or group run, as it arrives. */
export function RunCommands({ commands, loading }: { commands: CommandRead[]; loading?: boolean }) {
  return (
    <ListTable<CommandRead>
      tableId="run-commands"
      rowKey="sysno"
      size="small"
      loading={loading}
      dataSource={commands}
      pagination={commands.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
      scroll={{ y: 360 }}
      data-testid="run-commands"
      columns={[
        { title: commandLog.target, dataIndex: 'target_name', ellipsis: true },
        { title: commandLog.gateway, dataIndex: 'gateway_sn', render: (sn: string, row) => `${sn} · #${row.device_id}` },
        {
          title: commandLog.status,
          dataIndex: 'status_name',
          width: 100,
          render: (_name: string, row) => <CommandStatusTag command={row} />,
        },
        { title: commandLog.reason, dataIndex: 'reason', ellipsis: true, render: (r: string | null) => r ?? '—' },
        {
          title: commandLog.duration,
          dataIndex: 'duration_ms',
          width: 90,
          render: (ms: number | null) => (ms === null ? '—' : commandLog.ms(ms)),
        },
      ]}
    />
  );
}
