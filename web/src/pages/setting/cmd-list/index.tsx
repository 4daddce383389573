import { useState } from 'react';
import { Button, DatePicker, Form, Input, Select, Space, Table } from 'antd';
import { useCommandLog, useCommandOptions } from '@/api/control/queries';
import type { CommandQuery, CommandRead } from '@/api/control/types';
import { useProjectOptions } from '@/api/projects/queries';
import { commandLog, common, logs } from '@/locales/zh-CN';
import { commandColumns } from './columns';
import { PAGE_SIZES, SERVER_TIME_FORMAT, sortOf, timeRange, type TimeRange } from '../logFilters';

interface Filters {
  project_sysno?: number | null;
  status?: CommandQuery['status'];
  action?: CommandQuery['action'];
  source?: CommandQuery['source'];
  keyword?: string;
  range?: TimeRange;
}

/** 命令日志: every command, who or which task sent it, and how the gateway answered. */
export default function CmdListPage() {
  const [form] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: PAGE_SIZES[0] });
  const [order, setOrder] = useState(sortOf(undefined, 'create_time'));
  const projects = useProjectOptions();
  const options = useCommandOptions();
  const query: CommandQuery = {
    ...page,
    ...order,
    project_sysno: filters.project_sysno ?? null,
    status: filters.status ?? null,
    action: filters.action ?? null,
    source: filters.source ?? null,
    keyword: filters.keyword?.trim() || null,
    ...timeRange(filters.range),
  };
  const list = useCommandLog(query);

  function search(values: Filters) {
    setFilters(values);
    setPage((p) => ({ ...p, pageIndex: 1 }));
  }

  return (
    <>
      <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 8 }} name="command-filters">
        <Form.Item name="project_sysno">
          <Select
            allowClear
            placeholder={commandLog.allProjects}
            style={{ width: 160 }}
            options={(projects.data ?? []).map((p) => ({ value: p.sysno, label: p.name }))}
          />
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
        <Form.Item name="keyword">
          <Input allowClear placeholder={commandLog.keyword} style={{ width: 200 }} />
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
      <Table<CommandRead>
        rowKey="sysno"
        columns={commandColumns}
        dataSource={list.data?.dataSource ?? []}
        loading={list.isFetching}
        scroll={{ x: 1600 }}
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
        data-testid="command-table"
      />
    </>
  );
}
