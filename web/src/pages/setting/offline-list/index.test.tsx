import { screen, waitFor, within } from '@testing-library/react';
import { renderInApp, stubApi } from '@/test/render';
import OfflineListPage from './index';

const ROW = {
  sysno: 4,
  kind: 'gateway',
  target_name: 'E2E测试网关',
  project_sysno: 1,
  project_name: '科创园办公楼',
  gateway_sysno: 5,
  gateway_sn: 'E2E-GW-0001',
  gateway_name: 'E2E测试网关',
  device_sysno: null,
  device_id: null,
  reason: 'last_will',
  reason_name: '连接断开',
  offline_time: '2026-11-21 13:23:34',
  online_time: null,
  recovered: 0,
  duration_seconds: 65,
  duration: '1分5秒',
};

afterEach(() => vi.unstubAllGlobals());

describe('offline log', () => {
  it('pins and highlights the record named by ?sysno= and asks the server for it', async () => {
    const { calls } = stubApi({
      '/api/CustomerOfflineLog/GetOfflineLogList': { dataSource: [ROW], totalCount: 1 },
      '/api/CustomerOfflineLog/GetSingleOfflineLog': ROW,
      '/api/CustomerProject/GetFilterProjectList': [],
    });
    renderInApp(<OfflineListPage />, { path: '/user-manage/setting/offline-list?sysno=4' });
    const focus = await screen.findByTestId('offline-focus', {}, { timeout: 10_000 });
    expect(within(focus).getByText('已定位到离线记录 #4')).toBeInTheDocument();
    expect(await within(focus).findByText('仍离线')).toBeInTheDocument();
    expect(calls.some((c) => c.url.endsWith('/api/CustomerOfflineLog/GetSingleOfflineLog?sysno=4'))).toBe(true);
    const table = await screen.findByTestId('offline-table');
    await waitFor(() => expect(table.querySelector('tr.ant-table-row')?.className).toMatch(/highlight/));
  }, 20_000);

  it('shows the plain list without a sysno', async () => {
    const { calls } = stubApi({
      '/api/CustomerOfflineLog/GetOfflineLogList': { dataSource: [ROW], totalCount: 1 },
      '/api/CustomerProject/GetFilterProjectList': [],
    });
    renderInApp(<OfflineListPage />, { path: '/user-manage/setting/offline-list' });
    expect(await screen.findByText('连接断开', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByTestId('offline-focus')).toBeNull();
    expect(calls.some((c) => c.url.includes('GetSingleOfflineLog'))).toBe(false);
  }, 20_000);
});
