import { useState } from 'react';
import { Button, Select, Space } from 'antd';
import { CloudServerOutlined, DownloadOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useCreateReportJob } from '@/api/reports/centre';
import { useExportReport, type ReportFormat, type ReportKind, type ReportQueries } from '@/api/reports/queries';
import { useMessage } from '@/components/Feedback';
import { reportCentre, reports } from '@/locales/zh-CN';
import { saveFile } from '@/utils/saveFile';
import type { ReportDetail } from '../reportQuery';

interface Props<K extends ReportKind> {
  kind: K;
  /** The report as shown (its `format` is chosen here), or null while there is none. */
  query: ReportQueries[K] | null;
  /** The energy report's 明细 sheet: by hour, day or month. */
  detail?: { value: ReportDetail; onChange: (detail: ReportDetail) => void };
  /** The file name when the server gives none, without its extension. */
  fileName: string;
}

const DETAILS: ReportDetail[] = ['hour', 'day', 'month'];
const FORMATS: ReportFormat[] = ['xlsx', 'pdf'];

/** 导出: the report as shown, as an Excel workbook or an A4 PDF. A refusal is shown by the API client. */
export function ExportButton<K extends ReportKind>({ kind, query, detail, fileName }: Props<K>) {
  const message = useMessage();
  const navigate = useNavigate();
  const [format, setFormat] = useState<ReportFormat>('xlsx');
  const exporting = useExportReport(kind);
  const queueing = useCreateReportJob();
  const body = query ? { ...query, format, ...(detail ? { detail: detail.value } : {}) } : null;
  const run = () => {
    if (!body) return;
    exporting.mutate(body, { onSuccess: ({ blob, filename }) => saveFile(blob, filename ?? `${fileName}.${format}`) });
  };
  // A large export waits in the report centre instead: listed with its progress, downloaded when written.
  const queue = () => {
    if (!body) return;
    queueing.mutate(
      { kind, query: body },
      {
        onSuccess: () =>
          void message.success({
            content: (
              <span>
                {reportCentre.queued}
                <Button type="link" size="small" onClick={() => navigate('?tab=centre')} data-testid="report-open-centre">
                  {reportCentre.tab}
                </Button>
              </span>
            ),
          }),
      },
    );
  };
  // On a phone 后台生成 wraps under the export controls rather than push the card past the screen.
  return (
    <Space wrap size={8}>
      <Space.Compact>
        {detail && (
          <Select<ReportDetail>
            value={detail.value}
            onChange={detail.onChange}
            options={DETAILS.map((d) => ({ value: d, label: reports.details[d] }))}
            aria-label={reports.detail}
            style={{ width: 96 }}
            data-testid="report-detail"
          />
        )}
        <Select<ReportFormat>
          value={format}
          onChange={setFormat}
          options={FORMATS.map((f) => ({ value: f, label: reports.formats[f] }))}
          aria-label={reports.format}
          style={{ width: 80 }}
          data-testid="report-format"
        />
        <Button icon={<DownloadOutlined />} onClick={run} loading={exporting.isPending} disabled={!query} data-testid="report-export">
          {reports.export}
        </Button>
      </Space.Compact>
      <Button icon={<CloudServerOutlined />} onClick={queue} loading={queueing.isPending} disabled={!query} data-testid="report-background">
        {reportCentre.background}
      </Button>
    </Space>
  );
}
