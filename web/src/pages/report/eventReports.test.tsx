import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AlarmReport, AvailabilityReport, AvailabilityRow, ControlReport } from '@/api/schema';
import { renderInApp, stubApi } from '@/test/render';
import { lowestRates } from './components/AvailabilityReportTab';
import ReportPage from './index';

// jsdom has no canvas: the charts' options are checked on their own (charts.test.ts).
vi.mock('@/components/charts/EChart', () => ({ EChart: ({ testId }: { testId?: string }) => <div data-testid={testId} /> }));

const TREE = [
  {
    key: 'project-1',
    sysno: 1,
    name: '科创园办公楼',
    type: 'project',
    project_sysno: 1,
    device_count: 2,
    online_device_count: 2,
    list_child: [{ key: 'building-3', sysno: 3, name: 'B座', type: 'building', project_sysno: 1, device_count: 2, online_device_count: 2, list_child: [] }],
  },
];

const HEADER = { project_name: '科创园办公楼', building_name: null, view: 'day', start: '2026-11-25 00:00:00', end: '2026-11-26 00:00:00', partial: false };
const POINTS = [
  { label: '00:00', start: '2026-11-25 00:00:00' },
  { label: '01:00', start: '2026-11-25 01:00:00' },
];

const ALARM: AlarmReport = {
  ...HEADER,
  total: 7,
  active: 2,
  recovered: 5,
  unprocessed: 3,
  processed: 4,
  duration_seconds: 9000,
  avg_duration_seconds: 1285,
  avg_process_seconds: 3900,
  max_process_seconds: 7200,
  by_level: [
    { level: 1, label: '提示', count: 1, active: 0 },
    { level: 2, label: '重要', count: 2, active: 1 },
    { level: 3, label: '紧急', count: 4, active: 1 },
  ],
  by_type: [
    { alarm_type: 'over_current', label: '过流', count: 4, active: 1, duration_seconds: 6000, avg_duration_seconds: 1500 },
    { alarm_type: 'leakage', label: '漏电', count: 0, active: 0, duration_seconds: 0, avg_duration_seconds: null },
  ],
  by_building: [{ building_sysno: 3, name: 'B座', count: 7, active: 2, unprocessed: 3 }],
  points: POINTS.map((p, i) => ({ ...p, count: i ? 4 : 3, levels: i ? [0, 0, 4] : [1, 2, 0] })),
  rows: [
    { key: '5-11', gateway_sysno: 5, device_sysno: 11, name: '101宿舍', device_id: '1', gateway_sn: 'GW01', gateway_name: '网关', building_name: 'B座', count: 2, levels: [0, 0, 2], active: 0, unprocessed: 1, duration_seconds: 600, longest_seconds: 400, avg_process_seconds: null },
    { key: '5-12', gateway_sysno: 5, device_sysno: 12, name: '空调', device_id: '2', gateway_sn: 'GW01', gateway_name: '网关', building_name: 'B座', count: 5, levels: [1, 2, 2], active: 2, unprocessed: 2, duration_seconds: 8400, longest_seconds: 3600, avg_process_seconds: 3900 },
  ],
  longest_open: [
    { sysno: 99, target_name: '空调', device_id: '2', gateway_sn: 'GW01', alarm_type: 'over_current', alarm_type_name: '过流', level: 3, level_name: '紧急', detail: '过流告警：电流 47 A', start_time: '2026-11-25 01:10:00', duration_seconds: 93784, process_state: 0 },
  ],
};

const target = (patch: Partial<AvailabilityRow>): AvailabilityRow => ({
  key: 'device-11',
  kind: 'device',
  gateway_sysno: 5,
  device_sysno: 11,
  name: '101宿舍',
  device_id: '1',
  gateway_sn: 'GW01',
  gateway_name: '网关',
  building_name: 'B座',
  online: 1,
  observed_seconds: 86400,
  offline_count: 0,
  offline_seconds: 0,
  longest_seconds: 0,
  online_rate: 100,
  last_offline_time: null,
  ...patch,
});

const AVAILABILITY: AvailabilityReport = {
  ...HEADER,
  gateway_count: 1,
  device_count: 2,
  gateway_rate: 91.67,
  device_rate: 97.5,
  gateway_offline_count: 1,
  device_offline_count: 2,
  gateway_offline_seconds: 7200,
  device_offline_seconds: 4320,
  gateways_offline_now: 0,
  devices_offline_now: 1,
  points: POINTS.map((p, i) => ({ ...p, gateway: i, device: 2 * i })),
  gateways: [target({ key: 'gateway-5', kind: 'gateway', device_sysno: null, device_id: null, name: '网关', offline_count: 1, offline_seconds: 7200, longest_seconds: 7200, online_rate: 91.67 })],
  devices: [
    target({}),
    target({ key: 'device-12', device_sysno: 12, name: '水泵', online: 0, offline_count: 2, offline_seconds: 4320, longest_seconds: 3600, online_rate: 95, last_offline_time: '2026-11-25 01:00:00' }),
  ],
};

const counts = { total: 4, succeeded: 2, failed: 1, timeout: 1, offline: 0, pending: 0, success_rate: 50 };
const CONTROL: ControlReport = {
  ...HEADER,
  ...counts,
  avg_response_ms: 420,
  by_action: [{ key: 'switch_off', label: '分闸', ...counts }],
  by_source: [{ key: 'manual', label: '手动', ...counts }],
  points: POINTS.map((p, i) => ({ ...p, succeeded: 2 * i, unsuccessful: 2 * i, pending: 0 })),
  gateways: [{ gateway_sysno: 5, gateway_sn: 'GW01', gateway_name: '东楼网关', building_name: 'B座', ...counts, avg_response_ms: 420 }],
  tasks: [
    { key: 'task-8', task_sysno: 8, name: '夜间断电', runs: 1, skipped: 1, commands: 2, succeeded: 2, unsuccessful: 0, pending: 0, success_rate: 100, last_run: '2026-11-25 01:00:00' },
  ],
};

const ANSWERS = {
  '/api/CustomerProject/GetProjectAndBuildingGatewayList': TREE,
  '/api/CustomerReport/GetAlarmReport': ALARM,
  '/api/CustomerReport/GetAvailabilityReport': AVAILABILITY,
  '/api/CustomerReport/GetControlReport': CONTROL,
};

const bodyOf = (calls: { url: string; init: RequestInit }[], path: string) =>
  calls.filter((c) => c.url.endsWith(path)).map((c) => JSON.parse(String(c.init.body)));

const rowsOf = (testId: string) => Array.from(screen.getByTestId(testId).querySelectorAll<HTMLTableRowElement>('tr.ant-table-row'));
/** A row's first column (after the expand button of the folded columns). */
const nameOf = (row: HTMLTableRowElement) => row.querySelector('td:not(.ant-table-row-expand-icon-cell)')?.textContent;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function openTab(name: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('tab', { name }));
  return user;
}

describe('报表统计: alarm, availability and control reports', () => {
  it('告警报表: figures, both charts, devices sortable by count, the longest open and the buildings', async () => {
    const { calls } = stubApi(ANSWERS);
    renderInApp(<ReportPage />);
    const user = await openTab('告警报表');
    await waitFor(() => expect(screen.getByTestId('alarm-total')).toHaveTextContent('7'));
    expect(bodyOf(calls, '/GetAlarmReport')[0]).toEqual({
      project_sysno: 1,
      building_sysno: null,
      view: 'day',
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      end_date: null,
      format: 'xlsx',
    });
    expect(screen.getByTestId('alarm-active')).toHaveTextContent('2');
    expect(screen.getByText('已恢复 5 条')).toBeInTheDocument();
    expect(screen.getByTestId('alarm-process')).toHaveTextContent('1小时5分');
    expect(screen.getByText('最长 2小时')).toBeInTheDocument();
    expect(screen.getByTestId('alarm-trend')).toBeInTheDocument();
    expect(screen.getByTestId('alarm-types')).toBeInTheDocument();

    // most alarms first; a click on 告警数 turns the order round
    expect(rowsOf('alarm-table').map(nameOf)).toEqual(['空调', '101宿舍']);
    await user.click(within(screen.getByTestId('alarm-table')).getAllByText('告警数')[0]);
    expect(rowsOf('alarm-table').map(nameOf)).toEqual(['101宿舍', '空调']);
    const aircon = rowsOf('alarm-table').find((r) => r.textContent?.includes('空调')) as HTMLElement;
    expect(within(aircon).getByText('2小时20分')).toBeInTheDocument();

    const open = rowsOf('alarm-open')[0];
    expect(open).toHaveTextContent('过流');
    expect(open).toHaveTextContent('1天2小时');
    expect(open).toHaveTextContent('未处理');
    expect(rowsOf('alarm-buildings')[0]).toHaveTextContent('B座');
  });

  it('在线率报表: rates, spells, the lowest rates, devices or gateways in the table', async () => {
    stubApi(ANSWERS);
    renderInApp(<ReportPage />);
    const user = await openTab('在线率报表');
    await waitFor(() => expect(screen.getByTestId('availability-gateway-rate')).toHaveTextContent('91.67%'));
    expect(screen.getByTestId('availability-device-rate')).toHaveTextContent('97.50%');
    expect(screen.getByTestId('availability-spells')).toHaveTextContent('3');
    expect(screen.getByText('网关 1 次，设备 2 次')).toBeInTheDocument();
    expect(screen.getByText('网关 0 台，设备 1 台')).toBeInTheDocument();
    expect(screen.getByTestId('availability-lowest')).toBeInTheDocument();

    expect(rowsOf('availability-table').map(nameOf)).toEqual(['101宿舍', '水泵']);
    const pump = rowsOf('availability-table')[1];
    expect(pump).toHaveTextContent('95.00%');
    expect(pump).toHaveTextContent('1小时12分');
    expect(pump).toHaveTextContent('离线');
    await user.click(within(screen.getByTestId('availability-kind')).getByText('网关'));
    expect(rowsOf('availability-table').map(nameOf)).toEqual(['网关']);
    expect(rowsOf('availability-table')[0]).toHaveTextContent('2小时');
  });

  it('the lowest online rates: below 100 % only, lowest first, gateways and devices together', () => {
    expect(lowestRates(AVAILABILITY).map((r) => [r.name, r.online_rate])).toEqual([
      ['网关', 91.67],
      ['水泵', 95],
    ]);
  });

  it('控制报表: outcomes, success rate, response, gateways and the timed tasks', async () => {
    stubApi(ANSWERS);
    renderInApp(<ReportPage />);
    await openTab('控制报表');
    await waitFor(() => expect(screen.getByTestId('control-total')).toHaveTextContent('4'));
    expect(screen.getByTestId('control-success-rate')).toHaveTextContent('50.00%');
    expect(screen.getByTestId('control-unsuccessful')).toHaveTextContent('2');
    expect(screen.getByText('失败 1 · 超时 1 · 离线 0')).toBeInTheDocument();
    expect(screen.getByTestId('control-response')).toHaveTextContent('420毫秒');
    expect(rowsOf('control-table')[0]).toHaveTextContent('东楼网关');
    expect(rowsOf('control-table')[0]).toHaveTextContent('50.00%');
    expect(rowsOf('control-tasks')[0]).toHaveTextContent('夜间断电');
    expect(screen.getByTestId('control-trend')).toBeInTheDocument();
  });

  it('one filter bar for every tab: the building picked on one report is the next one’s', async () => {
    const { calls } = stubApi(ANSWERS);
    renderInApp(<ReportPage />);
    const user = await openTab('告警报表');
    await screen.findByTestId('alarm-table');
    expect(screen.queryByTestId('report-group')).toBeNull();
    await user.click(screen.getByTestId('report-building'));
    const options = await screen.findAllByTitle('B座');
    await user.click(options.find((el) => el.classList.contains('ant-select-item-option')) as HTMLElement);
    await waitFor(() => expect(bodyOf(calls, '/GetAlarmReport').at(-1)).toMatchObject({ building_sysno: 3 }));
    await user.click(screen.getByRole('tab', { name: '控制报表' }));
    await waitFor(() => expect(bodyOf(calls, '/GetControlReport').at(-1)).toMatchObject({ project_sysno: 1, building_sysno: 3 }));
    await user.click(screen.getByRole('tab', { name: '能耗报表' }));
    await waitFor(() => expect(bodyOf(calls, '/GetEnergyReport').at(-1)).toMatchObject({ building_sysno: 3, group: 'device' }));
  });

  it('exports the report shown as a PDF when PDF is chosen', async () => {
    const { calls, fetchStub } = stubApi(ANSWERS);
    const others = fetchStub.getMockImplementation();
    fetchStub.mockImplementation(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const recorded = await (others as NonNullable<typeof others>)(input, init);
      return String(input).endsWith('/ExportControlReport')
        ? new Response('%PDF', { status: 200, headers: { 'Content-Type': 'application/pdf' } })
        : recorded;
    });
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:report'), revokeObjectURL: vi.fn() });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderInApp(<ReportPage />);
    const user = await openTab('控制报表');
    await screen.findByTestId('control-table');
    await user.click(within(screen.getByTestId('report-format')).getByText('Excel'));
    await user.click(await screen.findByTitle('PDF'));
    await user.click(screen.getByTestId('report-export'));
    await waitFor(() => expect(saved).toEqual(['控制报表.pdf']));
    expect(bodyOf(calls, '/ExportControlReport')).toEqual([expect.objectContaining({ project_sysno: 1, format: 'pdf' })]);
    expect(bodyOf(calls, '/ExportControlReport')[0]).not.toHaveProperty('detail');
  });
});
