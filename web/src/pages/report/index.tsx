import { Result, Tabs } from 'antd';
import { ToolOutlined } from '@ant-design/icons';
import { reports } from '@/locales/zh-CN';
import { EnergyReportTab } from './components/EnergyReportTab';

/** The reports whose issue is still open say so, rather than show an empty table. */
function PendingReport({ name }: { name: string }) {
  return <Result icon={<ToolOutlined />} title={name} subTitle={reports.pending} data-testid="report-pending" />;
}

/** 报表统计: 能耗报表 works; 告警, 在线率 and 控制 reports are still being built. */
export default function ReportPage() {
  const { energy, alarm, online, control } = reports.tabs;
  return (
    <Tabs
      defaultActiveKey="energy"
      data-testid="report-page"
      items={[
        { key: 'energy', label: energy, children: <EnergyReportTab /> },
        { key: 'alarm', label: alarm, children: <PendingReport name={alarm} /> },
        { key: 'online', label: online, children: <PendingReport name={online} /> },
        { key: 'control', label: control, children: <PendingReport name={control} /> },
      ]}
    />
  );
}
