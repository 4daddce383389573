import { Form, Select, Table } from 'antd';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useStatusLogs, useStatusTypes } from '@/api/logs/queries';
import type { StatusLogQuery, StatusLogRead } from '@/api/logs/types';
import { ProjectSelect } from '@/components/ProjectSelect';
import { logs, offlineLogs, statusLogs } from '@/locales/zh-CN';
import { statusLogColumns } from './columns';
import { PAGE_SIZES } from '@/utils/listQuery';
import { logQuery, type LogFilters } from '../logFilters';
import { LogFilterTail } from '../LogFilterTail';

interface Filters extends LogFilters {
  status_type?: string | null;
}

/** 状态日志: online/offline and switch changes of gateways and devices, newest first. */
export default function StatListPage() {
  const [form] = Form.useForm<Filters>();
  const paged = usePagedQuery<Filters>({ pageSizes: PAGE_SIZES, showTotal: logs.total });
  const types = useStatusTypes();
  const query: StatusLogQuery = {
    ...logQuery(paged),
    status_type: paged.filters.status_type ?? null,
  };
  const list = useStatusLogs(query);

  return (
    <>
      <Form form={form} layout="inline" onFinish={paged.search} style={{ marginBottom: 16, rowGap: 8 }} name="status-filters">
        <Form.Item name="project_sysno">
          <ProjectSelect placeholder={offlineLogs.allProjects} width={170} />
        </Form.Item>
        <Form.Item name="status_type">
          <Select allowClear placeholder={statusLogs.allTypes} style={{ width: 120 }} options={types.data ?? []} loading={types.isPending} />
        </Form.Item>
        <LogFilterTail keywordPlaceholder={statusLogs.keyword} keywordWidth={230} onReset={() => paged.search({})} />
      </Form>
      <Table<StatusLogRead>
        rowKey="sysno"
        columns={statusLogColumns}
        scroll={{ x: 1000 }}
        {...paged.tableProps(list)}
        data-testid="status-table"
      />
    </>
  );
}
