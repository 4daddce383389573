import { useEffect } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { Alert, Button, Form, Select } from 'antd';
import { ListTable } from '@/components/ListTable';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useQueryClient } from '@tanstack/react-query';
import { logKeys, offlineLogApi, useOfflineLog, useOfflineLogs } from '@/api/logs/queries';
import { ExportListButton } from '@/components/ExportListButton';
import type { OfflineLogQuery, OfflineLogRead } from '@/api/schema';
import { logs, offlineLogs } from '@/locales/zh-CN';
import { offlineLogColumns } from './columns';
import { parseSysno, logQuery, type LogFilters } from '../logFilters';
import { LogFilterForm } from '../LogFilterForm';
import styles from './offline.module.css';

interface Filters extends LogFilters {
  kind?: 'gateway' | 'device' | null;
}

/**
 * 离线日志: every spell offline of a gateway or device. A `?sysno=` parameter (the alarm dialog's
 * jump) pins that record above the list, highlighted, and reloads it on every jump.
 */
export default function OfflineListPage() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const queryClient = useQueryClient();
  const focus = parseSysno(params.get('sysno'));
  const paged = usePagedQuery<Filters>({ orderBy: 'offline_time', showTotal: logs.total });
  const query: OfflineLogQuery = {
    ...logQuery(paged),
    kind: paged.filters.kind ?? null,
  };
  const list = useOfflineLogs(query);
  const focused = useOfflineLog(focus);

  // Every jump here (even to the same record) is a new location: reload the record and the list.
  useEffect(() => {
    if (focus !== null) void queryClient.invalidateQueries({ queryKey: logKeys.all });
  }, [location.key, focus, queryClient]);

  return (
    <>
      <LogFilterForm
        name="offline-filters"
        onSearch={paged.search}
        projectPlaceholder={offlineLogs.allProjects}
        projectWidth={170}
        keywordPlaceholder={offlineLogs.keyword}
        keywordWidth={190}
        actions={<ExportListButton download={() => offlineLogApi.exportList(query)} fallbackName={offlineLogs.exportName} />}
      >
        <Form.Item name="kind">
          <Select
            allowClear
            placeholder={offlineLogs.allKinds}
            style={{ width: 110 }}
            options={Object.entries(offlineLogs.kinds).map(([value, label]) => ({ value, label }))}
          />
        </Form.Item>
      </LogFilterForm>
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
            <ListTable<OfflineLogRead>
              tableId="offline-list"
              rowKey="sysno"
              size="small"
              columns={offlineLogColumns}
              dataSource={[focused.data]}
              pagination={false}
              rowClassName={() => styles.highlight}
            />
          )}
        </div>
      )}
      <ListTable<OfflineLogRead>
        tableId="offline-list"
        rowKey="sysno"
        columns={offlineLogColumns}
        rowClassName={(row) => (row.sysno === focus ? styles.highlight : '')}
        {...paged.tableProps(list)}
        data-testid="offline-table"
      />
    </>
  );
}
