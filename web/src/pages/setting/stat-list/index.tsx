import { useState } from 'react';
import { Button, DatePicker, Form, Input, Select, Space, Table } from 'antd';
import { useStatusLogs, useStatusTypes } from '@/api/logs/queries';
import type { StatusLogQuery, StatusLogRead } from '@/api/logs/types';
import { useProjectOptions } from '@/api/projects/queries';
import { common, logs, offlineLogs, statusLogs } from '@/locales/zh-CN';
import { statusLogColumns } from './columns';
import { PAGE_SIZES, SERVER_TIME_FORMAT, sortOf, timeRange, type TimeRange } from '../logFilters';

interface Filters {
  project_sysno?: number | null;
  status_type?: string | null;
  keyword?: string;
  range?: TimeRange;
}

/** 状态日志: online/offline and switch changes of gateways and devices, newest first. */
export default function StatListPage() {
  const [form] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: PAGE_SIZES[0] });
  const [order, setOrder] = useState(sortOf(undefined, 'create_time'));
  const options = useProjectOptions();
  const types = useStatusTypes();
  const query: StatusLogQuery = {
    ...page,
    ...order,
    project_sysno: filters.project_sysno ?? null,
    status_type: filters.status_type ?? null,
    keyword: filters.keyword?.trim() || null,
    ...timeRange(filters.range),
  };
  const list = useStatusLogs(query);

  function search(values: Filters) {
    setFilters(values);
    setPage((p) => ({ ...p, pageIndex: 1 }));
  }

  return (
    <>
      <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 8 }} name="status-filters">
        <Form.Item name="project_sysno">
          <Select
            allowClear
            placeholder={offlineLogs.allProjects}
            style={{ width: 170 }}
            options={(options.data ?? []).map((p) => ({ value: p.sysno, label: p.name }))}
          />
        </Form.Item>
        <Form.Item name="status_type">
          <Select allowClear placeholder={statusLogs.allTypes} style={{ width: 120 }} options={types.data ?? []} loading={types.isPending} />
        </Form.Item>
        <Form.Item name="keyword">
          <Input allowClear placeholder={statusLogs.keyword} style={{ width: 230 }} />
        </Form.Item>
        <Form.Item name="range">
          <DatePicker.RangePicker showTime format={SERVER_TIME_FORMAT} placeholder={[logs.startTime, logs.endTime]} />
        </Form.Item>
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
      </Form>
      <Table<StatusLogRead>
        rowKey="sysno"
        columns={statusLogColumns}
        dataSource={list.data?.dataSource ?? []}
        loading={list.isFetching}
        scroll={{ x: 1000 }}
        onChange={(_, __, sorter) => setOrder(sortOf(Array.isArray(sorter) ? sorter[0] : sorter, 'create_time'))}
        pagination={{
          current: page.pageIndex,
          pageSize: page.pageSize,
          total: list.data?.totalCount ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: logs.total,
          onChange: (pageIndex, pageSize) => setPage({ pageIndex: pageSize === page.pageSize ? pageIndex : 1, pageSize }),
        }}
        data-testid="status-table"
      />
    </>
  );
}
