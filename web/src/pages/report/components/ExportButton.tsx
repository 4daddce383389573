import { Button, Select, Space } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useExportEnergyReport } from '@/api/reports/queries';
import type { EnergyReportQuery } from '@/api/schema';
import { reports } from '@/locales/zh-CN';
import { saveFile } from '@/utils/saveFile';
import type { ReportDetail } from '../reportQuery';

interface Props {
  query: EnergyReportQuery | null;
  detail: ReportDetail;
  onDetail: (detail: ReportDetail) => void;
}

const DETAILS: ReportDetail[] = ['hour', 'day', 'month'];

/** 导出 Excel: the report as shown, with a 明细 sheet by hour, day or month. A refusal is shown by the API client. */
export function ExportButton({ query, detail, onDetail }: Props) {
  const exporting = useExportEnergyReport();
  const run = () => {
    if (!query) return;
    exporting.mutate({ ...query, detail }, { onSuccess: ({ blob, filename }) => saveFile(blob, filename ?? reports.fileName) });
  };
  return (
    <Space.Compact>
      <Select<ReportDetail>
        value={detail}
        onChange={onDetail}
        options={DETAILS.map((d) => ({ value: d, label: reports.details[d] }))}
        aria-label={reports.detail}
        style={{ width: 96 }}
        data-testid="report-detail"
      />
      <Button icon={<DownloadOutlined />} onClick={run} loading={exporting.isPending} disabled={!query} data-testid="report-export">
        {reports.export}
      </Button>
    </Space.Compact>
  );
}
