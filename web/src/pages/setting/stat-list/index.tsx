import { Form, Select } from 'antd';
import { ListTable } from '@/components/ListTable';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { statusLogApi, useStatusLogs, useStatusTypes } from '@/api/logs/queries';
import { ExportListButton } from '@/components/ExportListButton';
import type { StatusLogQuery, StatusLogRead } from '@/api/schema';
import { logs, offlineLogs, statusLogs } from '@/locales/zh-CN';
import { statusLogColumns } from './columns';
import { logQuery, type LogFilters } from '../logFilters';
import { LogFilterForm } from '../LogFilterForm';

interface Filters extends LogFilters {
  status_type?: string | null;
}

/** 状态日志: online/offline and switch changes of gateways and devices, newest first. */
export default function StatListPage() {
  const paged = usePagedQuery<Filters>({ showTotal: logs.total });
  const types = useStatusTypes();
  const query: StatusLogQuery = {
    ...logQuery(paged),
    status_type: paged.filters.status_type ?? null,
  };
  const list = useStatusLogs(query);

  return (
    <>
      <LogFilterForm
        name="status-filters"
        onSearch={paged.search}
        projectPlaceholder={offlineLogs.allProjects}
        projectWidth={170}
        keywordPlaceholder={statusLogs.keyword}
        keywordWidth={230}
        actions={<ExportListButton download={() => statusLogApi.exportList(query)} fallbackName={statusLogs.exportName} />}
      >
        <Form.Item name="status_type">
          <Select allowClear placeholder={statusLogs.allTypes} style={{ width: 120 }} options={types.data ?? []} loading={types.isPending} />
        </Form.Item>
      </LogFilterForm>
      <ListTable<StatusLogRead>
        tableId="stat-list"
        rowKey="sysno"
        columns={statusLogColumns}
        {...paged.tableProps(list)}
        data-testid="status-table"
      />
    </>
  );
}
