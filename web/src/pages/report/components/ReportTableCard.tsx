import type { ReactNode } from 'react';
import { Card } from 'antd';
import { ListTable } from '@/components/ListTable';
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
  return (
    <Card size="small" title={reports.tableTitle} extra={extra} data-testid="report-table-card">
      <ListTable<EnergyReportRow>
        tableId="report-energy"
        size="small"
        rowKey="key"
        dataSource={rows}
        columns={columns}
        loading={loading}
        pagination={rows.length > PAGE_SIZE ? { pageSize: PAGE_SIZE, size: 'small', showSizeChanger: false } : false}
        locale={{ emptyText: reports.empty }}
        data-testid="report-table"
        summaryRow={
          report && rows.length > 0
            ? {
                label: <b>{energy.total}</b>,
                cells: {
                  ...Object.fromEntries(used.map((period) => [`period-${period}`, <b key={period}>{formatNumber(report.total.kwh[period])}</b>])),
                  kwh: <b data-testid="report-total-kwh">{formatNumber(report.total_kwh)}</b>,
                  cost: <b data-testid="report-total-cost">{formatNumber(report.total_cost)}</b>,
                },
              }
            : null
        }
      />
    </Card>
  );
}
