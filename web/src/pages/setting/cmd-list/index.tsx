import { Form, Select, Table } from 'antd';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useCommandLog, useCommandOptions } from '@/api/control/queries';
import type { CommandQuery, CommandRead } from '@/api/control/types';
import { ProjectSelect } from '@/components/ProjectSelect';
import { commandLog, logs } from '@/locales/zh-CN';
import { commandColumns } from './columns';
import { PAGE_SIZES } from '@/utils/listQuery';
import { logQuery, type LogFilters } from '../logFilters';
import { LogFilterTail } from '../LogFilterTail';

interface Filters extends LogFilters {
  status?: CommandQuery['status'];
  action?: CommandQuery['action'];
  source?: CommandQuery['source'];
}

/** 命令日志: every command, who or which task sent it, and how the gateway answered. */
export default function CmdListPage() {
  const [form] = Form.useForm<Filters>();
  const paged = usePagedQuery<Filters>({ pageSizes: PAGE_SIZES, showTotal: logs.total });
  const options = useCommandOptions();
  const query: CommandQuery = {
    ...logQuery(paged),
    status: paged.filters.status ?? null,
    action: paged.filters.action ?? null,
    source: paged.filters.source ?? null,
  };
  const list = useCommandLog(query);

  return (
    <>
      <Form form={form} layout="inline" onFinish={paged.search} style={{ marginBottom: 16, rowGap: 8 }} name="command-filters">
        <Form.Item name="project_sysno">
          <ProjectSelect placeholder={commandLog.allProjects} width={160} />
        </Form.Item>
        <Form.Item name="action">
          <Select allowClear placeholder={commandLog.allActions} style={{ width: 120 }} options={options.data?.action ?? []} />
        </Form.Item>
        <Form.Item name="status">
          <Select allowClear placeholder={commandLog.allStatus} style={{ width: 120 }} options={options.data?.status ?? []} />
        </Form.Item>
        <Form.Item name="source">
          <Select allowClear placeholder={commandLog.allSources} style={{ width: 120 }} options={options.data?.source ?? []} />
        </Form.Item>
        <LogFilterTail keywordPlaceholder={commandLog.keyword} keywordWidth={200} onReset={() => paged.search({})} />
      </Form>
      <Table<CommandRead>
        rowKey="sysno"
        columns={commandColumns}
        scroll={{ x: 1600 }}
        {...paged.tableProps(list)}
        data-testid="command-table"
      />
    </>
  );
}
