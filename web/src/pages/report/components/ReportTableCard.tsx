import type { ReactNode } from 'react';
import { Card, Table } from 'antd';
import type { EnergyReport, EnergyReportRow } from '@/api/schema';
import { energy, reports } from '@/locales/zh-CN';
import { formatNumber } from '../../eng/chartOption';
import { reportColumns } from '../columns';
import { periodsInUse } from '../reportQuery';

interface Props {
  report: EnergyReport | undefined;
  loading: boolean;
  mobile: boolean;
  /** The export, in the card's header. */
  extra: ReactNode;
}

const PAGE_SIZE = 20;

/** The report's rows (all in one answer, paged here) and their total. */
export function ReportTableCard({ report, loading, mobile, extra }: Props) {
  const rows = report?.rows ?? [];
  const group = report?.group ?? 'device';
  const used = report ? periodsInUse(report.total) : [];
  const columns = reportColumns({ group, periods: report?.periods ?? [], used, mobile });
  // 名称, and for devices 建筑 and the two readings, stand before the figures.
  const leading = group === 'device' ? 4 : 1;
  return (
    <Card size="small" title={reports.tableTitle} extra={extra} data-testid="report-table-card">
      <Table<EnergyReportRow>
        size="small"
        rowKey="key"
        dataSource={rows}
        columns={columns}
        loading={loading}
        pagination={rows.length > PAGE_SIZE ? { pageSize: PAGE_SIZE, size: 'small', showSizeChanger: false } : false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: reports.empty }}
        data-testid="report-table"
        summary={() =>
          report &&
          rows.length > 0 && (
            <Table.Summary fixed>
              <Table.Summary.Row>
                <Table.Summary.Cell index={0} colSpan={leading}>
                  <b>{energy.total}</b>
                </Table.Summary.Cell>
                {used.map((period, i) => (
                  <Table.Summary.Cell key={period} index={leading + i} align="right">
                    <b>{formatNumber(report.total.kwh[period])}</b>
                  </Table.Summary.Cell>
                ))}
                <Table.Summary.Cell index={leading + used.length} align="right">
                  <b data-testid="report-total-kwh">{formatNumber(report.total_kwh)}</b>
                </Table.Summary.Cell>
                <Table.Summary.Cell index={leading + used.length + 1} align="right">
                  <b data-testid="report-total-cost">{formatNumber(report.total_cost)}</b>
                </Table.Summary.Cell>
                <Table.Summary.Cell index={leading + used.length + 2} />
              </Table.Summary.Row>
            </Table.Summary>
          )
        }
      />
    </Card>
  );
}
