import { useState } from 'react';
import { Button, DatePicker, Form, Select, Space, Table } from 'antd';
import { useOperationLogs, useOperationTypes } from '@/api/logs/queries';
import type { OperationLogRow } from '@/api/logs/types';
import { common, logs } from '@/locales/zh-CN';
import { operationLogColumns } from './columns';
import { PAGE_SIZES, SERVER_TIME_FORMAT, toQuery, type OperationLogFilters } from './filters';

/** 操作日志: the customer's own operations, filtered by type and time, newest first. */
export default function OperateListPage() {
  const [form] = Form.useForm<OperationLogFilters>();
  const [filters, setFilters] = useState<OperationLogFilters>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: PAGE_SIZES[0] });
  const [sort, setSort] = useState<'asc' | 'desc'>('desc');
  const types = useOperationTypes();
  const list = useOperationLogs(toQuery(filters, page, sort));

  function search(values: OperationLogFilters) {
    setFilters(values);
    setPage((p) => ({ ...p, pageIndex: 1 }));
  }

  return (
    <>
      <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 8 }} name="operate-filters">
        <Form.Item name="operate_type" label={logs.operateType}>
          <Select allowClear placeholder={logs.operateTypePlaceholder} style={{ width: 160 }} options={types.data ?? []} loading={types.isPending} />
        </Form.Item>
        <Form.Item name="range" label={logs.time}>
          <DatePicker.RangePicker showTime format={SERVER_TIME_FORMAT} placeholder={[logs.startTime, logs.endTime]} />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit">
              {common.query}
            </Button>
            <Button
              onClick={() => {
                form.resetFields();
                search({});
              }}
            >
              {common.reset}
            </Button>
          </Space>
        </Form.Item>
      </Form>
      <Table<OperationLogRow>
        rowKey="sysno"
        columns={operationLogColumns}
        dataSource={list.data?.dataSource ?? []}
        loading={list.isFetching}
        scroll={{ x: 760 }}
        onChange={(_, __, sorter) => {
          const order = Array.isArray(sorter) ? sorter[0]?.order : sorter.order;
          setSort(order === 'ascend' ? 'asc' : 'desc');
        }}
        pagination={{
          current: page.pageIndex,
          pageSize: page.pageSize,
          total: list.data?.totalCount ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: logs.total,
          onChange: (pageIndex, pageSize) => setPage({ pageIndex: pageSize === page.pageSize ? pageIndex : 1, pageSize }),
        }}
      />
    </>
  );
}
