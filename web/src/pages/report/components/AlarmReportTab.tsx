import { useMemo } from 'react';
import { Card, Col, Row, theme } from 'antd';
import { ListTable } from '@/components/ListTable';
import { useAlarmReport } from '@/api/reports/queries';
import type { AlarmReport } from '@/api/schema';
import { EChart } from '@/components/charts/EChart';
import { reports } from '@/locales/zh-CN';
import { useAppStore } from '@/store/app';
import { EMPTY, formatDuration } from '@/utils/format';
import { LEVEL_COLORS, ringOption, stackedOption } from '../charts';
import { alarmColumns, openAlarmColumns } from '../eventColumns';
import { eventQuery } from '../reportQuery';
import styles from '../report.module.css';
import { ExportButton } from './ExportButton';
import { ReportFilters, type ReportFiltersProps } from './ReportFilters';
import { ReportStats, type Stat } from './ReportStats';

const t = reports.alarm;
const PAGE_SIZE = 20;
const duration = (seconds: number | null | undefined) => (seconds === null || seconds === undefined ? EMPTY : formatDuration(seconds));

function stats(report: AlarmReport | undefined): Stat[] {
  return [
    { title: t.total, value: report?.total ?? EMPTY, note: report && t.recovered(report.recovered), testId: 'alarm-total' },
    { title: t.active, value: report?.active ?? EMPTY, color: LEVEL_COLORS[2], note: report && t.avgDuration(duration(report.avg_duration_seconds)), testId: 'alarm-active' },
    { title: t.unprocessed, value: report?.unprocessed ?? EMPTY, color: LEVEL_COLORS[1], note: report && t.processed(report.processed), testId: 'alarm-unprocessed' },
    {
      title: t.avgProcess,
      value: duration(report?.avg_process_seconds),
      note: report && t.maxProcess(duration(report.max_process_seconds)),
      testId: 'alarm-process',
    },
  ];
}

/** 告警报表: the alarms that began in the period by level over time, by type, by device and building; the longest still open. */
export function AlarmReportTab(filters: ReportFiltersProps) {
  const mobile = useAppStore((s) => s.device === 'mobile');
  const query = eventQuery(filters.filter);
  const report = useAlarmReport(query);
  const data = report.data;
  const primary = theme.useToken().token.colorPrimary;
  const charts = useMemo(
    () =>
      data && {
        trend: stackedOption(
          data.points.map((p) => p.label),
          data.by_level.map((level, i) => ({ name: level.label, values: data.points.map((p) => p.levels[i]), color: LEVEL_COLORS[i] })),
          mobile,
        ),
        types: ringOption(t.byType, data.by_type.map((k) => ({ name: k.label, value: k.count })), mobile, primary),
      },
    [data, mobile, primary],
  );
  const rows = data?.rows ?? [];
  return (
    <div className={styles.page} data-testid="alarm-report">
      <Card size="small">
        <ReportFilters {...filters} />
      </Card>
      <ReportStats stats={stats(data)} loading={report.isPending && query !== null} mobile={mobile} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={16}>
          <Card size="small" title={t.trend}>
            {charts && <EChart option={charts.trend} height={mobile ? 220 : 260} testId="alarm-trend" />}
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card size="small" title={t.byType}>
            {charts && <EChart option={charts.types} height={mobile ? 240 : 260} testId="alarm-types" />}
          </Card>
        </Col>
      </Row>
      <Card
        size="small"
        title={t.tableTitle}
        extra={<ExportButton kind="alarm" query={query} fileName={t.fileName} />}
        data-testid="report-table-card"
      >
        <ListTable
          tableId="report-alarms"
          size="small"
          rowKey="key"
          dataSource={rows}
          columns={alarmColumns(mobile)}
          loading={report.isFetching}
          pagination={rows.length > PAGE_SIZE ? { pageSize: PAGE_SIZE, size: 'small', showSizeChanger: false } : false}
          locale={{ emptyText: reports.empty }}
          data-testid="alarm-table"
        />
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Card size="small" title={t.longestOpen}>
            <ListTable
              tableId="report-open-alarms"
              size="small"
              rowKey="sysno"
              dataSource={data?.longest_open ?? []}
              columns={openAlarmColumns()}
              pagination={false}
              locale={{ emptyText: t.noOpen }}
              data-testid="alarm-open"
            />
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <Card size="small" title={t.byBuilding}>
            <ListTable
              tableId="report-alarm-buildings"
              size="small"
              rowKey={(b) => b.building_sysno ?? 0}
              dataSource={data?.by_building ?? []}
              columns={[
                { title: t.building, dataIndex: 'name', key: 'name', ellipsis: true },
                { title: t.count, dataIndex: 'count', key: 'count', width: 80, align: 'right' },
                { title: t.active, dataIndex: 'active', key: 'active', width: 80, align: 'right' },
                { title: t.unprocessed, dataIndex: 'unprocessed', key: 'unprocessed', width: 80, align: 'right' },
              ]}
              pagination={false}
              locale={{ emptyText: reports.empty }}
              data-testid="alarm-buildings"
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
