import { Button, Popconfirm, Space, Switch, Tag } from 'antd';
import type { ListColumn } from '@/components/ListTable';
import type { TaskRow } from '@/api/schema';
import { MemberNames } from '@/components/control/MemberNames';
import { control, timedTask } from '@/locales/zh-CN';
import { describeSchedule } from './schedule';

export interface TaskActions {
  onEdit: (task: TaskRow) => void;
  onHistory: (task: TaskRow) => void;
  onDelete: (task: TaskRow) => void;
  onEnable: (task: TaskRow, enabled: boolean) => void;
}

export function taskColumns(actions: TaskActions): ListColumn<TaskRow>[] {
  return [
    { title: timedTask.name, dataIndex: 'name', key: 'name', width: 160, ellipsis: true, keep: true },
    {
      title: timedTask.action,
      dataIndex: 'action_name',
      key: 'action',
      width: 80,
      keep: 'wide',
      render: (name: string, task) => <Tag color={task.action === 'switch_on' ? 'processing' : 'warning'}>{name}</Tag>,
    },
    {
      title: timedTask.state,
      dataIndex: 'enabled',
      key: 'enabled',
      width: 90,
      keep: true,
      render: (enabled: number, task) => (
        <Switch
          size="small"
          checked={enabled === 1}
          checkedChildren={timedTask.on}
          unCheckedChildren={timedTask.off}
          onChange={(next) => actions.onEnable(task, next)}
          data-testid="task-enabled"
        />
      ),
    },
    { title: timedTask.schedule, key: 'schedule', width: 210, rank: 2, render: (_, task) => describeSchedule(task) },
    {
      title: timedTask.deviceCount,
      dataIndex: 'device_count',
      key: 'devices',
      width: 90,
      rank: 4,
      render: (n: number, task) => (
        <MemberNames kind="task" sysno={task.sysno}>
          <span>{n}</span>
        </MemberNames>
      ),
    },
    { title: timedTask.nextRun, dataIndex: 'next_run', key: 'next_run', width: 185, rank: 3, render: (t: string | null) => t ?? timedTask.none },
    {
      title: timedTask.lastRun,
      key: 'last_run',
      width: 200,
      rank: 5,
      render: (_, task) => (task.last_run ? `${task.last_run}（${task.last_run_status ?? ''}）` : timedTask.none),
    },
    {
      title: control.actions,
      key: 'actions',
      width: 200,
      keep: 'wide',
      rank: 1,
      fixed: 'right',
      render: (_, task) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => actions.onEdit(task)}>
            {control.edit}
          </Button>
          <Button type="link" size="small" onClick={() => actions.onHistory(task)}>
            {timedTask.history}
          </Button>
          <Popconfirm title={timedTask.deleteConfirm(task.name)} onConfirm={() => actions.onDelete(task)}>
            <Button type="link" size="small" danger>
              {control.delete}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
}
