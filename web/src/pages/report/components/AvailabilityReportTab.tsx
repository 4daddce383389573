import { useMemo, useState } from 'react';
import { Card, Col, Empty, Row, Segmented, Space } from 'antd';
import { ListTable } from '@/components/ListTable';
import { useAvailabilityReport } from '@/api/reports/queries';
import type { AvailabilityReport, AvailabilityRow } from '@/api/schema';
import { EChart } from '@/components/charts/EChart';
import { reports } from '@/locales/zh-CN';
import { useAppStore } from '@/store/app';
import { EMPTY, formatDuration } from '@/utils/format';
import { BAD, BLUE, LEVEL_COLORS, ORANGE, rankedOption, stackedOption } from '../charts';
import { availabilityColumns } from '../eventColumns';
import { eventQuery } from '../reportQuery';
import styles from '../report.module.css';
import { ExportButton } from './ExportButton';
import { ReportFilters, type ReportFiltersProps } from './ReportFilters';
import { ReportStats, type Stat } from './ReportStats';

const t = reports.availability;
type Kind = keyof typeof t.kinds;
const PAGE_SIZE = 20;
/** The chart of the lowest online rates shows this many. */
const LOWEST = 10;
const percent = (v: number | null | undefined) => (v === null || v === undefined ? EMPTY : v.toFixed(2));

function stats(report: AvailabilityReport | undefined): Stat[] {
  const rated = (rate: number | null | undefined) => (rate !== null && rate !== undefined && rate < 100 ? LEVEL_COLORS[1] : undefined);
  return [
    {
      title: t.gatewayRate,
      value: percent(report?.gateway_rate),
      suffix: report?.gateway_rate === null ? undefined : '%',
      color: rated(report?.gateway_rate),
      note: report && `${t.countOf(report.gateway_count)}，${t.offlineTime(formatDuration(report.gateway_offline_seconds))}`,
      testId: 'availability-gateway-rate',
    },
    {
      title: t.deviceRate,
      value: percent(report?.device_rate),
      suffix: report?.device_rate === null ? undefined : '%',
      color: rated(report?.device_rate),
      note: report && `${t.countOf(report.device_count)}，${t.offlineTime(formatDuration(report.device_offline_seconds))}`,
      testId: 'availability-device-rate',
    },
    {
      title: t.spells,
      value: report ? report.gateway_offline_count + report.device_offline_count : EMPTY,
      note: report && t.spellsOf(report.gateway_offline_count, report.device_offline_count),
      testId: 'availability-spells',
    },
    {
      title: t.offlineNow,
      value: report ? report.gateways_offline_now + report.devices_offline_now : EMPTY,
      color: report && report.gateways_offline_now + report.devices_offline_now > 0 ? BAD : undefined,
      note: report && t.offlineNowOf(report.gateways_offline_now, report.devices_offline_now),
      testId: 'availability-offline-now',
    },
  ];
}

/** The gateways and devices offline for the largest share of the period, lowest rate first. */
export function lowestRates(report: AvailabilityReport): AvailabilityRow[] {
  return [...report.gateways, ...report.devices]
    .filter((r): r is AvailabilityRow & { online_rate: number } => r.online_rate !== null && r.online_rate < 100)
    .sort((x, y) => x.online_rate - y.online_rate || x.name.localeCompare(y.name))
    .slice(0, LOWEST);
}

/** 在线率报表: every gateway's and device's online rate and offline spells over the period. */
export function AvailabilityReportTab(filters: ReportFiltersProps) {
  const mobile = useAppStore((s) => s.device === 'mobile');
  const [kind, setKind] = useState<Kind>('device');
  const query = eventQuery(filters.filter);
  const report = useAvailabilityReport(query);
  const data = report.data;
  const lowest = useMemo(() => (data ? lowestRates(data) : []), [data]);
  const charts = useMemo(
    () =>
      data && {
        trend: stackedOption(
          data.points.map((p) => p.label),
          [
            { name: t.kinds.gateway, values: data.points.map((p) => p.gateway), color: ORANGE },
            { name: t.kinds.device, values: data.points.map((p) => p.device), color: BLUE },
          ],
          mobile,
        ),
        lowest: rankedOption(t.rate, lowest.map((r) => ({ name: r.name, value: r.online_rate ?? 0 })), '%', BAD, 100),
      },
    [data, lowest, mobile],
  );
  const rows = (kind === 'gateway' ? data?.gateways : data?.devices) ?? [];
  return (
    <div className={styles.page} data-testid="availability-report">
      <Card size="small">
        <ReportFilters {...filters} />
      </Card>
      <ReportStats stats={stats(data)} loading={report.isPending && query !== null} mobile={mobile} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          <Card size="small" title={t.trend}>
            {charts && <EChart option={charts.trend} height={mobile ? 220 : 260} testId="availability-trend" />}
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card size="small" title={t.lowest}>
            {charts && lowest.length > 0 ? (
              <EChart option={charts.lowest} height={mobile ? 220 : 260} testId="availability-lowest" />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={data ? t.allOnline : reports.empty} />
            )}
          </Card>
        </Col>
      </Row>
      <Card
        size="small"
        title={
          <Space wrap>
            {t.tableTitle}
            <Segmented<Kind>
              size="small"
              value={kind}
              onChange={setKind}
              options={(['device', 'gateway'] as Kind[]).map((k) => ({ value: k, label: t.kinds[k] }))}
              data-testid="availability-kind"
            />
          </Space>
        }
        extra={<ExportButton kind="availability" query={query} fileName={t.fileName} />}
        data-testid="report-table-card"
      >
        <ListTable<AvailabilityRow>
          tableId="report-availability"
          size="small"
          rowKey="key"
          dataSource={rows}
          columns={availabilityColumns(kind === 'device', mobile)}
          loading={report.isFetching}
          pagination={rows.length > PAGE_SIZE ? { pageSize: PAGE_SIZE, size: 'small', showSizeChanger: false } : false}
          locale={{ emptyText: reports.empty }}
          data-testid="availability-table"
        />
      </Card>
    </div>
  );
}
