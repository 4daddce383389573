import { useEffect, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { Alert, Button, DatePicker, Form, Input, Select, Space, Table } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { logKeys, useOfflineLog, useOfflineLogs } from '@/api/logs/queries';
import type { OfflineLogQuery, OfflineLogRead } from '@/api/logs/types';
import { useProjectOptions } from '@/api/projects/queries';
import { common, logs, offlineLogs } from '@/locales/zh-CN';
import { offlineLogColumns } from './columns';
import { PAGE_SIZES, parseSysno, SERVER_TIME_FORMAT, sortOf, timeRange, type TimeRange } from '../logFilters';
import styles from './offline.module.css';

interface Filters {
  project_sysno?: number | null;
  kind?: 'gateway' | 'device' | null;
  keyword?: string;
  range?: TimeRange;
}

/**
 * 离线日志: every spell offline of a gateway or device. A `?sysno=` parameter (the alarm dialog's
 * jump) pins that record above the list, highlighted, and reloads it on every jump.
 */
export default function OfflineListPage() {
  const [form] = Form.useForm<Filters>();
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const queryClient = useQueryClient();
  const focus = parseSysno(params.get('sysno'));
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState({ pageIndex: 1, pageSize: PAGE_SIZES[0] });
  const [order, setOrder] = useState(sortOf(undefined, 'offline_time'));
  const options = useProjectOptions();
  const query: OfflineLogQuery = {
    ...page,
    ...order,
    project_sysno: filters.project_sysno ?? null,
    kind: filters.kind ?? null,
    keyword: filters.keyword?.trim() || null,
    ...timeRange(filters.range),
  };
  const list = useOfflineLogs(query);
  const focused = useOfflineLog(focus);

  // Every jump here (even to the same record) is a new location: reload the record and the list.
  useEffect(() => {
    if (focus !== null) void queryClient.invalidateQueries({ queryKey: logKeys.all });
  }, [location.key, focus, queryClient]);

  function search(values: Filters) {
    setFilters(values);
    setPage((p) => ({ ...p, pageIndex: 1 }));
  }

  return (
    <>
      <Form form={form} layout="inline" onFinish={search} style={{ marginBottom: 16, rowGap: 8 }} name="offline-filters">
        <Form.Item name="project_sysno">
          <Select
            allowClear
            placeholder={offlineLogs.allProjects}
            style={{ width: 170 }}
            options={(options.data ?? []).map((p) => ({ value: p.sysno, label: p.name }))}
          />
        </Form.Item>
        <Form.Item name="kind">
          <Select
            allowClear
            placeholder={offlineLogs.allKinds}
            style={{ width: 110 }}
            options={Object.entries(offlineLogs.kinds).map(([value, label]) => ({ value, label }))}
          />
        </Form.Item>
        <Form.Item name="keyword">
          <Input allowClear placeholder={offlineLogs.keyword} style={{ width: 190 }} />
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
      {focus !== null && (
        <div data-testid="offline-focus" style={{ marginBottom: 16 }}>
          <Alert
            type={focused.isError ? 'warning' : 'info'}
            showIcon
            message={focused.isError ? offlineLogs.notFound : offlineLogs.highlighted(focus)}
            action={
              <Button size="small" onClick={() => setParams({}, { replace: true })}>
                {offlineLogs.clearFocus}
              </Button>
            }
            style={{ marginBottom: focused.data ? 8 : 0 }}
          />
          {focused.data && (
            <Table<OfflineLogRead>
              rowKey="sysno"
              size="small"
              columns={offlineLogColumns}
              dataSource={[focused.data]}
              pagination={false}
              scroll={{ x: 1240 }}
              rowClassName={() => styles.highlight}
            />
          )}
        </div>
      )}
      <Table<OfflineLogRead>
        rowKey="sysno"
        columns={offlineLogColumns}
        dataSource={list.data?.dataSource ?? []}
        loading={list.isFetching}
        scroll={{ x: 1240 }}
        rowClassName={(row) => (row.sysno === focus ? styles.highlight : '')}
        onChange={(_, __, sorter) => setOrder(sortOf(Array.isArray(sorter) ? sorter[0] : sorter, 'offline_time'))}
        pagination={{
          current: page.pageIndex,
          pageSize: page.pageSize,
          total: list.data?.totalCount ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: logs.total,
          onChange: (pageIndex, pageSize) => setPage({ pageIndex: pageSize === page.pageSize ? pageIndex : 1, pageSize }),
        }}
        data-testid="offline-table"
      />
    </>
  );
}
