import { Button, Tag, Tooltip } from 'antd';
import type { AlarmRead } from '@/api/schema';
import type { ListColumn } from '@/components/ListTable';
import { alarms, control } from '@/locales/zh-CN';
import { durationText } from './filters';

export const LEVEL_COLORS: Record<number, string> = { 1: 'blue', 2: 'orange', 3: 'red' };

function valueText(row: AlarmRead, value: number | null): string {
  if (value === null || value === undefined) return '—';
  return `${Number(value.toFixed(2))}${row.unit ? ` ${row.unit}` : ''}`;
}

export function alarmColumns(
  onProcess: (row: AlarmRead) => void,
  canControl: (projectSysno: number) => boolean = () => true,
): ListColumn<AlarmRead>[] {
  return [
    { title: alarms.time, dataIndex: 'start_time', width: 185, fixed: 'left', keep: 'wide', rank: 2 },
    { title: alarms.project, dataIndex: 'project_name', width: 120, ellipsis: true, rank: 14 },
    { title: alarms.target, dataIndex: 'target_name', width: 120, ellipsis: true, keep: 'wide', rank: 3 },
    { title: alarms.deviceId, dataIndex: 'device_id', width: 140, ellipsis: true, rank: 11 },
    {
      title: alarms.type,
      dataIndex: 'alarm_type_name',
      width: 100,
      keep: true,
      render: (name: string, row) => <Tag color={LEVEL_COLORS[row.level]}>{name}</Tag>,
    },
    { title: alarms.level, dataIndex: 'level_name', width: 80, rank: 13 },
    { title: alarms.value, key: 'value', width: 100, rank: 15, render: (_: unknown, row) => valueText(row, row.value) },
    { title: alarms.threshold, key: 'threshold', width: 100, rank: 16, render: (_: unknown, row) => valueText(row, row.threshold) },
    {
      title: alarms.detail,
      dataIndex: 'detail',
      width: 200,
      rank: 12,
      ellipsis: { showTitle: false },
      render: (text: string) => (
        <Tooltip placement="topLeft" title={text}>
          {text}
        </Tooltip>
      ),
    },
    {
      title: alarms.state,
      dataIndex: 'state',
      width: 90,
      keep: true,
      render: (state: number, row) => <Tag color={state === 0 ? 'red' : 'green'}>{row.state_name}</Tag>,
    },
    { title: alarms.recoverTime, dataIndex: 'end_time', width: 185, rank: 8, render: (v: string | null) => v ?? '—' },
    { title: alarms.duration, dataIndex: 'duration_seconds', width: 100, rank: 9, render: (v: number) => durationText(v) },
    {
      title: alarms.processState,
      dataIndex: 'process_state',
      width: 90,
      keep: 'wide',
      rank: 1,
      render: (v: number) =>
        v === 1 ? <Tag color="green">{alarms.processOptions[1].label}</Tag> : <Tag color="orange">{alarms.processOptions[0].label}</Tag>,
    },
    { title: alarms.remark, dataIndex: 'process_remark', width: 140, ellipsis: true, rank: 17, render: (v: string | null) => v ?? '—' },
    {
      title: alarms.action,
      key: 'action',
      width: 80,
      keep: 'wide',
      rank: 0,
      fixed: 'right',
      render: (_: unknown, row) => {
        // Processing changes the owner's record: a project shared 仅查看 cannot.
        const viewOnly = !canControl(row.project_sysno);
        return (
          // A span takes the hover a disabled button does not.
          <Tooltip title={viewOnly ? control.viewOnly : undefined}>
            <span>
              <Button
                type="link"
                size="small"
                disabled={viewOnly || row.process_state === 1}
                onClick={() => onProcess(row)}
                data-testid="alarm-process"
              >
                {alarms.process}
              </Button>
            </span>
          </Tooltip>
        );
      },
    },
  ];
}
