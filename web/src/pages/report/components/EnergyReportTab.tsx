import { useState } from 'react';
import { Card } from 'antd';
import { useEnergyReport } from '@/api/reports/queries';
import { reports } from '@/locales/zh-CN';
import { useAppStore } from '@/store/app';
import { EnergyChartCard } from '../../eng/components/EnergyChartCard';
import { EnergySummary } from '../../eng/components/EnergySummary';
import { defaultDetail, reportQuery, type ReportDetail } from '../reportQuery';
import { ExportButton } from './ExportButton';
import { ReportFilters, type ReportFiltersProps } from './ReportFilters';
import { ReportTableCard } from './ReportTableCard';
import styles from '../report.module.css';

/** 能耗报表: a project's (or building's) use over a day, month, year or range, by device, building or the project. */
export function EnergyReportTab(filters: ReportFiltersProps) {
  const mobile = useAppStore((s) => s.device === 'mobile');
  const { filter } = filters;
  // null: the 明细 that suits the period (hours of a day …) until the user picks one for this view.
  const [detail, setDetail] = useState<ReportDetail | null>(null);
  const query = reportQuery(filter);
  const report = useEnergyReport(query);

  return (
    <div className={styles.page} data-testid="energy-report">
      <Card size="small">
        <ReportFilters
          {...filters}
          groups
          onFilter={(next) => {
            if (next.period.view !== filter.period.view) setDetail(null);
            filters.onFilter(next);
          }}
        />
      </Card>
      <EnergySummary chart={report.data} loading={report.isFetching} unit="kwh" mobile={mobile} />
      <EnergyChartCard chart={report.data} loading={report.isFetching} unit="kwh" mobile={mobile} idleText={reports.noProjects} />
      <ReportTableCard
        report={report.data}
        loading={report.isFetching}
        mobile={mobile}
        extra={
          <ExportButton
            kind="energy"
            query={query}
            detail={{ value: detail ?? defaultDetail(filter.period.view), onChange: setDetail }}
            fileName={reports.tabs.energy}
          />
        }
      />
    </div>
  );
}
