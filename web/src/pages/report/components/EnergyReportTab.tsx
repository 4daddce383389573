import { useState } from 'react';
import { Card } from 'antd';
import { useProjectTree } from '@/api/projects/queries';
import { useEnergyReport } from '@/api/reports/queries';
import { reports } from '@/locales/zh-CN';
import { useAppStore } from '@/store/app';
import { serverNow } from '@/utils/format';
import { EnergyChartCard } from '../../eng/components/EnergyChartCard';
import { EnergySummary } from '../../eng/components/EnergySummary';
import { defaultDetail, reportQuery, type ReportDetail, type ReportFilter } from '../reportQuery';
import { ExportButton } from './ExportButton';
import { ReportFilters } from './ReportFilters';
import { ReportTableCard } from './ReportTableCard';
import styles from '../report.module.css';

/** 能耗报表: a project's (or building's) use over a day, month, year or range, by device, building or the project. */
export function EnergyReportTab() {
  const mobile = useAppStore((s) => s.device === 'mobile');
  const tree = useProjectTree();
  const [filter, setFilter] = useState<ReportFilter>(() => {
    const today = serverNow().startOf('day');
    return { project: null, building: null, group: 'device', period: { view: 'day', date: today, end: today, resolution: 'hour' } };
  });
  // null: the 明细 that suits the period (hours of a day …) until the user picks one for this view.
  const [detail, setDetail] = useState<ReportDetail | null>(null);

  // The first project once the projects are in, until the user picks one.
  const project = filter.project ?? tree.data?.[0]?.sysno ?? null;
  const query = reportQuery({ ...filter, project });
  const report = useEnergyReport(query);

  return (
    <div className={styles.page} data-testid="energy-report">
      <Card size="small">
        <ReportFilters
          projects={tree.data}
          loading={tree.isPending}
          filter={{ ...filter, project }}
          onFilter={(next) => {
            if (next.period.view !== filter.period.view) setDetail(null);
            setFilter(next);
          }}
        />
      </Card>
      <EnergySummary chart={report.data} loading={report.isFetching} unit="kwh" mobile={mobile} />
      <EnergyChartCard chart={report.data} loading={report.isFetching} unit="kwh" mobile={mobile} idleText={reports.noProjects} />
      <ReportTableCard
        report={report.data}
        loading={report.isFetching}
        mobile={mobile}
        extra={<ExportButton query={query} detail={detail ?? defaultDetail(filter.period.view)} onDetail={setDetail} />}
      />
    </div>
  );
}
