import { Tag } from 'antd';
import type { CommandRead } from '@/api/schema';

const STATUS_COLOR: Record<string, string> = {
  succeeded: 'success',
  failed: 'error',
  timeout: 'warning',
  offline: 'default',
  pending: 'processing',
};

/** A command's outcome as a coloured tag, in the command log and in task and group runs. */
export function CommandStatusTag({ command, testId }: { command: Pick<CommandRead, 'status' | 'status_name'>; testId?: string }) {
  return (
    <Tag color={STATUS_COLOR[command.status] ?? 'default'} data-testid={testId}>
      {command.status_name}
    </Tag>
  );
}
