import { Alert, Button, Card, Popconfirm, Progress, Select, Space, Tag, Typography } from 'antd';
import { ListTable, type ListColumn } from '@/components/ListTable';
import { DeleteOutlined, DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { centreApi, useCentreRefresh, useReportJobs } from '@/api/reports/centre';
import type { ReportJobRead } from '@/api/schema';
import { useMessage } from '@/components/Feedback';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { reportCentre as t } from '@/locales/zh-CN';
import { saveFile } from '@/utils/saveFile';
import styles from '../report.module.css';

type Status = keyof typeof t.statuses;
const STATUS_COLORS: Record<Status, string> = { queued: 'default', running: 'processing', done: 'success', failed: 'error' };

/** 12.3 KB, 4.5 MB. */
export function fileSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function StatusCell({ job }: { job: ReportJobRead }) {
  if (job.status === 'running') {
    return <Progress percent={job.progress} size="small" status="active" style={{ width: 120 }} data-testid="job-progress" />;
  }
  return <Tag color={STATUS_COLORS[job.status as Status] ?? 'default'}>{job.status_name}</Tag>;
}

/** 报表中心: every report file generated in the background, its progress, then its download until it expires. */
export function ReportCentreTab() {
  const message = useMessage();
  const refresh = useCentreRefresh();
  const paged = usePagedQuery<{ status?: Status }>({ orderBy: 'sysno' });
  const list = useReportJobs({ ...paged.page, ...paged.order, status: paged.filters.status ?? null });
  const download = useMutation({
    mutationFn: (job: ReportJobRead) => centreApi.download(job.sysno),
    onSuccess: ({ blob, filename }, job) => saveFile(blob, filename ?? job.file_name ?? `${job.title}.${job.format}`),
  });
  const remove = useMutation({
    mutationFn: (job: ReportJobRead) => centreApi.remove([job.sysno]),
    onSuccess: () => {
      void message.success(t.removed);
      refresh();
    },
  });

  const columns: ListColumn<ReportJobRead>[] = [
    {
      title: t.title,
      dataIndex: 'title',
      key: 'title',
      width: 320,
      keep: true,
      render: (title: string, job) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text>{title}</Typography.Text>
          {job.file_name && <Typography.Text type="secondary" className={styles.fileName}>{job.file_name}</Typography.Text>}
        </Space>
      ),
    },
    { title: t.format, dataIndex: 'format', key: 'format', width: 80, render: (f: keyof typeof t.formats) => t.formats[f] ?? f },
    { title: t.status, key: 'status', width: 150, keep: 'wide', render: (_, job) => <StatusCell job={job} /> },
    { title: t.createTime, dataIndex: 'create_time', key: 'create_time', width: 185, sorter: true, rank: 1 },
    { title: t.expireTime, dataIndex: 'expire_time', key: 'expire_time', width: 185, rank: 3, render: (v: string | null) => v ?? '—' },
    { title: t.size, dataIndex: 'size', key: 'size', width: 100, render: (v: number | null) => fileSize(v) },
    {
      title: t.detail,
      dataIndex: 'detail',
      key: 'detail',
      render: (v: string | null, job) => (v ? <Typography.Text type={job.status === 'failed' ? 'danger' : 'secondary'}>{v}</Typography.Text> : '—'),
    },
    {
      title: t.actions,
      key: 'actions',
      width: 170,
      keep: 'wide',
      fixed: 'right',
      render: (_, job) => (
        <Space size={4}>
          <Button
            type="link"
            size="small"
            icon={<DownloadOutlined />}
            disabled={job.status !== 'done'}
            loading={download.isPending && download.variables?.sysno === job.sysno}
            onClick={() => download.mutate(job)}
            data-testid="job-download"
          >
            {t.download}
          </Button>
          <Popconfirm title={t.removeConfirm} onConfirm={() => remove.mutate(job)} disabled={job.status === 'running'}>
            <Button type="link" size="small" danger icon={<DeleteOutlined />} disabled={job.status === 'running'}>
              {t.remove}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <Card size="small" data-testid="report-centre">
      <Space wrap style={{ marginBottom: 12 }}>
        <Select<Status>
          allowClear
          placeholder={t.allStatus}
          style={{ width: 140 }}
          options={(Object.keys(t.statuses) as Status[]).map((s) => ({ value: s, label: t.statuses[s] }))}
          onChange={(status) => paged.search({ status })}
          data-testid="job-status"
        />
        <Button icon={<ReloadOutlined />} onClick={refresh}>
          {t.refresh}
        </Button>
      </Space>
      <Alert type="info" showIcon title={t.intro} style={{ marginBottom: 12 }} />
      <ListTable<ReportJobRead>
        tableId="report-centre"
        rowKey="sysno"
        size="small"
        columns={columns}
        locale={{ emptyText: t.empty }}
        {...paged.tableProps(list)}
        data-testid="job-table"
      />
    </Card>
  );
}
