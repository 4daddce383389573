import { Modal, Progress, Space, Typography } from 'antd';
import { useRunStatus } from '@/api/control/queries';
import { RunCommands } from '@/components/control/RunCommands';
import { control, groupControl } from '@/locales/zh-CN';

/** The share of a run's devices that have answered, in percent. */
export function answeredPercent(run: { total: number; succeeded: number; failed: number } | undefined): number {
  if (!run || run.total === 0) return 0;
  return Math.round(((run.succeeded + run.failed) / run.total) * 100);
}

/** A group run as it happens: progress, tallies, and each device's result as it arrives. */
export function RunProgress({ sysno, onClose }: { sysno: number | null; onClose: () => void }) {
  const status = useRunStatus(sysno);
  const run = status.data;
  const pending = run ? run.total - run.succeeded - run.failed : 0;
  return (
    <Modal
      open={sysno !== null}
      onCancel={onClose}
      onOk={onClose}
      okText={control.ok}
      cancelButtonProps={{ style: { display: 'none' } }}
      title={run ? groupControl.progressTitle(run.name, run.action_name) : groupControl.progress}
      width={760}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }} data-testid="run-progress">
        <Progress
          percent={answeredPercent(run)}
          success={{ percent: run && run.total ? Math.round((run.succeeded / run.total) * 100) : 0 }}
          status={run?.status === 'running' ? 'active' : run && run.failed > 0 ? 'exception' : 'success'}
        />
        {run && (
          <Typography.Text data-testid="run-counts">
            {groupControl.counts(run.succeeded, run.failed, Math.max(pending, 0))} · {run.status_name}
          </Typography.Text>
        )}
        <RunCommands commands={run?.commands ?? []} loading={status.isPending} />
      </Space>
    </Modal>
  );
}
