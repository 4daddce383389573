import { DatePicker, Form, Select } from 'antd';
import { ListTable } from '@/components/ListTable';
import { FilterActions } from '@/components/FilterActions';
import { FilterForm } from '@/components/FilterForm';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { operationLogApi, useOperationLogs, useOperationTypes } from '@/api/logs/queries';
import { ExportListButton } from '@/components/ExportListButton';
import type { OperationLogRead } from '@/api/schema';
import { logs } from '@/locales/zh-CN';
import { operationLogColumns } from './columns';
import { SERVER_TIME_FORMAT } from '@/utils/listQuery';
import { toQuery, type OperationLogFilters } from './filters';

/** 操作日志: the customer's own operations, filtered by type and time, newest first. */
export default function OperateListPage() {
  const [form] = Form.useForm<OperationLogFilters>();
  const paged = usePagedQuery<OperationLogFilters>({ showTotal: logs.total });
  const types = useOperationTypes();
  const query = toQuery(paged.filters, paged.page, paged.order.sort);
  const list = useOperationLogs(query);

  return (
    <>
      <FilterForm<OperationLogFilters>
        form={form}
        onFinish={paged.search}
        name="operate-filters"
        actions={<ExportListButton download={() => operationLogApi.exportList(query)} fallbackName={logs.exportName} />}
      >
        <Form.Item name="operate_type" label={logs.operateType}>
          <Select allowClear placeholder={logs.operateTypePlaceholder} style={{ width: 160 }} options={types.data ?? []} loading={types.isPending} />
        </Form.Item>
        <Form.Item name="range" label={logs.time}>
          <DatePicker.RangePicker showTime format={SERVER_TIME_FORMAT} placeholder={[logs.startTime, logs.endTime]} />
        </Form.Item>
        <FilterActions item onReset={() => paged.search({})} />
      </FilterForm>
      <ListTable<OperationLogRead>
        tableId="operate-list"
        rowKey="sysno"
        columns={operationLogColumns}
        {...paged.tableProps(list)}
      />
    </>
  );
}
