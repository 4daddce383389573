import { useState } from 'react';
import { Button, Card, Input, Space } from 'antd';
import { ListTable } from '@/components/ListTable';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { controlApi, useControlRefresh, useTasks } from '@/api/control/queries';
import type { TaskRow } from '@/api/schema';
import { ExportListButton } from '@/components/ExportListButton';
import { useMessage } from '@/components/Feedback';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { routeTitles, timedTask } from '@/locales/zh-CN';
import { taskColumns } from './columns';
import { RunsDrawer } from './components/RunsDrawer';
import { TaskModal } from './components/TaskModal';

const PAGE_SIZES = [10, 20, 50];

/** 定时控制: tasks that switch devices at set times, their next run and their history. */
export default function TimingTaskPage() {
  const message = useMessage();
  const refresh = useControlRefresh();
  const paged = usePagedQuery<{ name?: string }>({ pageSizes: PAGE_SIZES });
  const [editing, setEditing] = useState<{ sysno: number | null } | null>(null);
  const [history, setHistory] = useState<TaskRow | null>(null);
  const query = { ...paged.page, ...paged.order, name: paged.filters.name || null };
  const list = useTasks(query);
  const enable = useMutation({
    mutationFn: ({ sysno, enabled }: { sysno: number; enabled: boolean }) => controlApi.enableTask(sysno, enabled),
    onSuccess: (_, { enabled }) => {
      void message.success(enabled ? timedTask.on : timedTask.off);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (sysno: number) => controlApi.deleteTask(sysno),
    onSuccess: refresh,
  });

  const columns = taskColumns({
    onEdit: (task) => setEditing({ sysno: task.sysno }),
    onHistory: setHistory,
    onDelete: (task) => remove.mutate(task.sysno),
    onEnable: (task, enabled) => enable.mutate({ sysno: task.sysno, enabled }),
  });

  return (
    <Card size="small" title={routeTitles['timing-task']} data-testid="timing-task">
      <Space style={{ marginBottom: 16 }} wrap>
        <Input.Search
          maxLength={64}
          allowClear
          placeholder={timedTask.keyword}
          style={{ width: 220 }}
          onSearch={(value) => paged.search({ name: value.trim() })}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ sysno: null })} data-testid="add-task">
          {timedTask.add}
        </Button>
        <ExportListButton download={() => controlApi.exportTasks(query)} fallbackName={timedTask.exportName} />
      </Space>
      <ListTable<TaskRow>
        tableId="timing-task"
        rowKey="sysno"
        columns={columns}
        {...paged.tableProps(list)}
        data-testid="task-table"
      />
      <TaskModal open={editing !== null} sysno={editing?.sysno ?? null} onClose={() => setEditing(null)} />
      <RunsDrawer task={history} onClose={() => setHistory(null)} />
    </Card>
  );
}
