import { Form, Select } from 'antd';
import { ListTable } from '@/components/ListTable';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { controlApi, useCommandLog, useCommandOptions } from '@/api/control/queries';
import { ExportListButton } from '@/components/ExportListButton';
import type { CommandQuery, CommandRead } from '@/api/schema';
import { commandLog, logs } from '@/locales/zh-CN';
import { commandColumns } from './columns';
import { logQuery, type LogFilters } from '../logFilters';
import { LogFilterForm } from '../LogFilterForm';

interface Filters extends LogFilters {
  status?: CommandQuery['status'];
  action?: CommandQuery['action'];
  source?: CommandQuery['source'];
}

/** 命令日志: every command, who or which task sent it, and how the gateway answered. */
export default function CmdListPage() {
  const paged = usePagedQuery<Filters>({ showTotal: logs.total });
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
      <LogFilterForm
        name="command-filters"
        onSearch={paged.search}
        projectPlaceholder={commandLog.allProjects}
        projectWidth={160}
        keywordPlaceholder={commandLog.keyword}
        keywordWidth={200}
        actions={<ExportListButton download={() => controlApi.exportCommands(query)} fallbackName={commandLog.exportName} />}
      >
        <Form.Item name="action">
          <Select allowClear placeholder={commandLog.allActions} style={{ width: 120 }} options={options.data?.action ?? []} />
        </Form.Item>
        <Form.Item name="status">
          <Select allowClear placeholder={commandLog.allStatus} style={{ width: 120 }} options={options.data?.status ?? []} />
        </Form.Item>
        <Form.Item name="source">
          <Select allowClear placeholder={commandLog.allSources} style={{ width: 120 }} options={options.data?.source ?? []} />
        </Form.Item>
      </LogFilterForm>
      <ListTable<CommandRead>
        tableId="cmd-list"
        rowKey="sysno"
        columns={commandColumns}
        {...paged.tableProps(list)}
        data-testid="command-table"
      />
    </>
  );
}
