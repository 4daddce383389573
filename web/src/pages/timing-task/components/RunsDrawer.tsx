import { Drawer, Table, Tag } from 'antd';
import { controlApi, useRunDetail, useRuns } from '@/api/control/queries';
import type { RunRead, TaskRow } from '@/api/schema';
import { RunCommands } from '@/components/control/RunCommands';
import { ExportListButton } from '@/components/ExportListButton';
import { timedTask } from '@/locales/zh-CN';

const RUN_COLOR: Record<string, string> = { done: 'success', running: 'processing', skipped: 'warning' };

function RunDetailRow({ sysno }: { sysno: number }) {
  const detail = useRunDetail(sysno);
  return <RunCommands commands={detail.data?.commands ?? []} loading={detail.isPending} />;
}

/** A task's runs, newest first; a row opens to each device's result. */
export function RunsDrawer({ task, onClose }: { task: TaskRow | null; onClose: () => void }) {
  const query = { task_sysno: task?.sysno ?? null, pageIndex: 1, pageSize: 50 };
  const runs = useRuns(query, task !== null);
  return (
    <Drawer
      open={task !== null}
      onClose={onClose}
      size={760}
      title={`${task?.name ?? ''} · ${timedTask.history}`}
      extra={<ExportListButton download={() => controlApi.exportRuns(query)} fallbackName={timedTask.history} testId="runs-export" />}
      destroyOnHidden
    >
      <Table<RunRead>
        rowKey="sysno"
        size="small"
        loading={runs.isPending}
        dataSource={runs.data?.dataSource ?? []}
        pagination={false}
        expandable={{ expandedRowRender: (run) => <RunDetailRow sysno={run.sysno} />, rowExpandable: (run) => run.total > 0 }}
        data-testid="task-runs"
        columns={[
          { title: timedTask.runTime, dataIndex: 'scheduled_for', width: 170 },
          {
            title: timedTask.runStatus,
            dataIndex: 'status_name',
            width: 90,
            render: (name: string, run) => <Tag color={RUN_COLOR[run.status] ?? 'default'}>{name}</Tag>,
          },
          {
            title: timedTask.runResult,
            key: 'counts',
            render: (_, run) => (run.status === 'skipped' ? run.detail : timedTask.runCounts(run.succeeded, run.failed, run.total)),
          },
        ]}
      />
    </Drawer>
  );
}
