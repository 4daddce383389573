import { useState } from 'react';
import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useProjectTree } from '@/api/projects/queries';
import { reportCentre, reports } from '@/locales/zh-CN';
import { AlarmReportTab } from './components/AlarmReportTab';
import { AvailabilityReportTab } from './components/AvailabilityReportTab';
import { ControlReportTab } from './components/ControlReportTab';
import { EnergyReportTab } from './components/EnergyReportTab';
import { ReportCentreTab } from './components/ReportCentreTab';
import type { ReportFiltersProps } from './components/ReportFilters';
import { SubscriptionsTab } from './components/SubscriptionsTab';
import { initialFilter, type ReportFilter } from './reportQuery';

/** 报表统计: the energy, alarm, availability and control reports over one project, building and period chosen once for all; the report centre and the scheduled reports. */
export default function ReportPage() {
  const tree = useProjectTree();
  const [filter, setFilter] = useState<ReportFilter>(initialFilter);
  // The first project once the projects are in, until the user picks one.
  const project = filter.project ?? tree.data?.[0]?.sysno ?? null;
  const filters: ReportFiltersProps = { projects: tree.data, loading: tree.isPending, filter: { ...filter, project }, onFilter: setFilter };
  const { energy, alarm, online, control } = reports.tabs;
  // The tab is in the address (?tab=centre): a report notice and the 后台生成 message lead there.
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') ?? 'energy';
  return (
    <Tabs
      activeKey={tab}
      onChange={(key) => setParams({ tab: key }, { replace: true })}
      destroyOnHidden
      data-testid="report-page"
      items={[
        { key: 'energy', label: energy, children: <EnergyReportTab {...filters} /> },
        { key: 'alarm', label: alarm, children: <AlarmReportTab {...filters} /> },
        { key: 'online', label: online, children: <AvailabilityReportTab {...filters} /> },
        { key: 'control', label: control, children: <ControlReportTab {...filters} /> },
        { key: 'centre', label: reportCentre.tab, children: <ReportCentreTab /> },
        { key: 'subscriptions', label: reportCentre.subscriptionsTab, children: <SubscriptionsTab /> },
      ]}
    />
  );
}
