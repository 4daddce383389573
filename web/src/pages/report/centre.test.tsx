import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hasActiveJobs } from '@/api/reports/centre';
import type { ReportJobRead, SubscriptionRead } from '@/api/schema';
import { renderInApp, stubApi } from '@/test/render';
import { fileSize } from './components/ReportCentreTab';
import { subscriptionBody } from './components/SubscriptionModal';
import ReportPage from './index';

vi.mock('@/components/charts/EChart', () => ({ EChart: ({ testId }: { testId?: string }) => <div data-testid={testId} /> }));

const job = (patch: Partial<ReportJobRead>): ReportJobRead => ({
  sysno: 7,
  kind: 'energy',
  kind_name: '能耗报表',
  format: 'xlsx',
  title: '能耗报表 · 科创园办公楼（Excel）',
  status: 'done',
  status_name: '已完成',
  progress: 100,
  file_name: '能耗报表_科创园办公楼_2026-11-25_按小时.xlsx',
  size: 18_432,
  detail: null,
  subscription_sysno: null,
  period: null,
  create_time: '2026-11-26 10:00:00',
  end_time: '2026-11-26 10:00:03',
  expire_time: '2026-12-03 10:00:03',
  ...patch,
});

const SUBSCRIPTION: SubscriptionRead = {
  sysno: 3,
  name: '月报',
  kind: 'energy',
  kind_name: '能耗报表',
  frequency: 'month',
  frequency_name: '每月',
  format: 'pdf',
  project_sysno: 1,
  project_name: '科创园办公楼',
  query: { project_sysno: 1, group: 'building', format: 'pdf' },
  emails: ['boss@example.com'],
  enabled: true,
  last_period: '2026-10',
  create_time: '2026-11-26 10:00:00',
  update_time: '2026-11-26 10:00:00',
};

const TREE = [{ key: 'project-1', sysno: 1, name: '科创园办公楼', type: 'project', project_sysno: 1, device_count: 2, online_device_count: 2, list_child: [] }];

describe('报表中心', () => {
  it('sizes files and polls only while a job waits or runs', () => {
    expect([fileSize(null), fileSize(900), fileSize(18_432), fileSize(5 * 1024 * 1024)]).toEqual(['—', '900 B', '18.0 KB', '5.0 MB']);
    expect(hasActiveJobs({ dataSource: [job({})], totalCount: 1 })).toBe(false);
    expect(hasActiveJobs({ dataSource: [job({}), job({ sysno: 8, status: 'running' })], totalCount: 2 })).toBe(true);
    expect(hasActiveJobs(undefined)).toBe(false);
  });

  it('lists the files with their progress and downloads a finished one by its id', async () => {
    const { calls } = stubApi({
      '/api/CustomerProject/GetProjectAndBuildingGatewayList': TREE,
      '/api/CustomerReport/GetReportJobList': {
        dataSource: [job({ sysno: 8, status: 'running', status_name: '生成中', progress: 40, file_name: null, size: null }), job({}), job({ sysno: 6, status: 'failed', status_name: '失败', detail: '项目不存在或无权访问', file_name: null })],
        totalCount: 3,
      },
    });
    renderInApp(<ReportPage />, { path: '/?tab=centre' });
    const table = await screen.findByTestId('job-table');
    await within(table).findByText('能耗报表_科创园办公楼_2026-11-25_按小时.xlsx');
    expect(within(table).getByTestId('job-progress')).toBeInTheDocument();
    expect(within(table).getByText('项目不存在或无权访问')).toBeInTheDocument();
    const downloads = within(table).getAllByTestId('job-download');
    expect(downloads.map((b) => (b as HTMLButtonElement).disabled)).toEqual([true, false, true]);
    await userEvent.click(downloads[1]);
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/DownloadReportFile'))).toBe(true));
    const sent = calls.find((c) => c.url.endsWith('/DownloadReportFile'));
    expect(JSON.parse(String(sent?.init.body))).toEqual({ sysno: 7 });
  });
});

describe('定时报表', () => {
  it('saves the filters without a period: the energy grouping and building, nothing else for other reports', () => {
    const values = { name: ' 月报 ', project: 1, building: 3, group: 'building' as const, frequency: 'month' as const, format: 'pdf' as const, emails: ['a@b.cn'], enabled: true };
    expect(subscriptionBody({ ...values, kind: 'energy' }, null)).toEqual({
      sysno: null,
      name: '月报',
      kind: 'energy',
      frequency: 'month',
      query: { project_sysno: 1, format: 'pdf', group: 'building', building_sysno: 3 },
      emails: ['a@b.cn'],
      enabled: true,
    });
    expect(subscriptionBody({ ...values, kind: 'alarm' }, 5).query).toEqual({ project_sysno: 1, format: 'pdf' });
  });

  it('lists subscriptions and switches one off with its filters unchanged', async () => {
    const { calls } = stubApi({
      '/api/CustomerProject/GetProjectAndBuildingGatewayList': TREE,
      '/api/CustomerReport/GetReportSubscriptionList': { dataSource: [SUBSCRIPTION], totalCount: 1 },
      '/api/CustomerReport/SaveReportSubscription': { ...SUBSCRIPTION, enabled: false },
    });
    renderInApp(<ReportPage />, { path: '/?tab=subscriptions' });
    const table = await screen.findByTestId('subscription-table');
    await within(table).findByText('boss@example.com');
    expect(within(table).getByText('2026-10')).toBeInTheDocument();
    await userEvent.click(within(table).getByRole('switch'));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/SaveReportSubscription'))).toBe(true));
    const sent = calls.find((c) => c.url.endsWith('/SaveReportSubscription'));
    expect(JSON.parse(String(sent?.init.body))).toEqual({
      sysno: 3,
      name: '月报',
      kind: 'energy',
      frequency: 'month',
      query: SUBSCRIPTION.query,
      emails: ['boss@example.com'],
      enabled: false,
    });
  });
});
