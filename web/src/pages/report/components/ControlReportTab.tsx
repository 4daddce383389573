import { useMemo } from 'react';
import { Card, Col, Row } from 'antd';
import { ListTable } from '@/components/ListTable';
import { useControlReport } from '@/api/reports/queries';
import type { ControlReport } from '@/api/schema';
import { EChart } from '@/components/charts/EChart';
import { reports } from '@/locales/zh-CN';
import { useAppStore } from '@/store/app';
import { EMPTY } from '@/utils/format';
import { BAD, GOOD, LEVEL_COLORS, stackedOption, WAITING } from '../charts';
import { controlColumns, taskColumns } from '../eventColumns';
import { eventQuery } from '../reportQuery';
import styles from '../report.module.css';
import { ExportButton } from './ExportButton';
import { ReportFilters, type ReportFiltersProps } from './ReportFilters';
import { ReportStats, type Stat } from './ReportStats';

const t = reports.control;
const PAGE_SIZE = 20;

function stats(report: ControlReport | undefined): Stat[] {
  const unsuccessful = report ? report.failed + report.timeout + report.offline : null;
  return [
    { title: t.total, value: report?.total ?? EMPTY, note: report && t.pendingOf(report.pending), testId: 'control-total' },
    {
      title: t.successRate,
      value: report?.success_rate === null || !report ? EMPTY : report.success_rate.toFixed(2),
      suffix: report?.success_rate === null || !report ? undefined : '%',
      color: report && report.success_rate !== null && report.success_rate < 100 ? LEVEL_COLORS[1] : undefined,
      note: report && `${t.outcomes.succeeded} ${report.succeeded} 条`,
      testId: 'control-success-rate',
    },
    {
      title: t.unsuccessful,
      value: unsuccessful ?? EMPTY,
      color: unsuccessful ? BAD : undefined,
      note: report && t.unsuccessfulOf(report.failed, report.timeout, report.offline),
      testId: 'control-unsuccessful',
    },
    {
      title: t.avgResponse,
      value: report?.avg_response_ms ?? EMPTY,
      suffix: report?.avg_response_ms === null || !report ? undefined : t.ms,
      testId: 'control-response',
    },
  ];
}

/** 控制报表: the commands sent in the period by outcome over time and by action, per gateway, and the timed tasks' runs. */
export function ControlReportTab(filters: ReportFiltersProps) {
  const mobile = useAppStore((s) => s.device === 'mobile');
  const query = eventQuery(filters.filter);
  const report = useControlReport(query);
  const data = report.data;
  const charts = useMemo(
    () =>
      data && {
        trend: stackedOption(
          data.points.map((p) => p.label),
          [
            { name: t.outcomes.succeeded, values: data.points.map((p) => p.succeeded), color: GOOD },
            { name: t.outcomes.unsuccessful, values: data.points.map((p) => p.unsuccessful), color: BAD },
            { name: t.outcomes.pending, values: data.points.map((p) => p.pending), color: WAITING },
          ],
          mobile,
        ),
        actions: stackedOption(
          data.by_action.map((k) => k.label),
          [
            { name: t.outcomes.succeeded, values: data.by_action.map((k) => k.succeeded), color: GOOD },
            { name: t.outcomes.unsuccessful, values: data.by_action.map((k) => k.failed + k.timeout + k.offline), color: BAD },
            { name: t.outcomes.pending, values: data.by_action.map((k) => k.pending), color: WAITING },
          ],
          mobile,
        ),
      },
    [data, mobile],
  );
  const rows = data?.gateways ?? [];
  return (
    <div className={styles.page} data-testid="control-report">
      <Card size="small">
        <ReportFilters {...filters} />
      </Card>
      <ReportStats stats={stats(data)} loading={report.isPending && query !== null} mobile={mobile} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={16}>
          <Card size="small" title={t.trend}>
            {charts && <EChart option={charts.trend} height={mobile ? 220 : 260} testId="control-trend" />}
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card size="small" title={t.byAction}>
            {charts && <EChart option={charts.actions} height={mobile ? 220 : 260} testId="control-actions" />}
          </Card>
        </Col>
      </Row>
      <Card size="small" title={t.tableTitle} extra={<ExportButton kind="control" query={query} fileName={t.fileName} />} data-testid="report-table-card">
        <ListTable
          tableId="report-control-gateways"
          size="small"
          rowKey="gateway_sysno"
          dataSource={rows}
          columns={controlColumns(mobile)}
          loading={report.isFetching}
          pagination={rows.length > PAGE_SIZE ? { pageSize: PAGE_SIZE, size: 'small', showSizeChanger: false } : false}
          locale={{ emptyText: reports.empty }}
          data-testid="control-table"
        />
      </Card>
      <Card size="small" title={t.tasksTitle}>
        <ListTable
          tableId="report-control-tasks"
          size="small"
          rowKey="key"
          dataSource={data?.tasks ?? []}
          columns={taskColumns()}
          pagination={false}
          locale={{ emptyText: t.noTasks }}
          data-testid="control-tasks"
        />
      </Card>
    </div>
  );
}
