import { DatePicker, Form, Select, Table } from 'antd';
import { FilterActions } from '@/components/FilterActions';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useOperationLogs, useOperationTypes } from '@/api/logs/queries';
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
  const list = useOperationLogs(toQuery(paged.filters, paged.page, paged.order.sort));

  return (
    <>
      <Form form={form} layout="inline" onFinish={paged.search} style={{ marginBottom: 16, rowGap: 8 }} name="operate-filters">
        <Form.Item name="operate_type" label={logs.operateType}>
          <Select allowClear placeholder={logs.operateTypePlaceholder} style={{ width: 160 }} options={types.data ?? []} loading={types.isPending} />
        </Form.Item>
        <Form.Item name="range" label={logs.time}>
          <DatePicker.RangePicker showTime format={SERVER_TIME_FORMAT} placeholder={[logs.startTime, logs.endTime]} />
        </Form.Item>
        <FilterActions item onReset={() => paged.search({})} />
      </Form>
      <Table<OperationLogRead>
        rowKey="sysno"
        columns={operationLogColumns}
        scroll={{ x: 760 }}
        {...paged.tableProps(list)}
      />
    </>
  );
}
