import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EnergyChart, EnergyTable } from '@/api/schema';
import { renderInApp, stubApi } from '@/test/render';
import EnergyPage from './index';

// jsdom has no canvas: the chart is checked through its option builder's own tests.
vi.mock('@/components/charts/EChart', () => ({ EChart: ({ testId }: { testId?: string }) => <div data-testid={testId} /> }));

const TREE = [
  {
    key: 'project-1',
    sysno: 1,
    name: '科创园办公楼',
    type: 'project',
    project_sysno: 1,
    device_count: 1,
    online_device_count: 1,
    list_child: [{ key: 'building-3', sysno: 3, name: 'B座', type: 'building', project_sysno: 1, device_count: 1, online_device_count: 1, list_child: [] }],
  },
];

const point = (label: string, kwh: number, estimated = false) => ({
  label,
  start: `2026-11-25 ${label}:00`,
  kwh: [0, 0, kwh, 0, 0],
  cost: [0, 0, kwh * 0.5, 0, 0],
  total_kwh: kwh,
  total_cost: kwh * 0.5,
  estimated,
  reset: false,
  implausible: false,
});

const CHART: EnergyChart = {
  view: 'day',
  start: '2026-11-25 00:00:00',
  end: '2026-11-26 00:00:00',
  partial: true,
  periods: ['尖', '峰', '平', '谷', '深谷'],
  priced: false,
  points: [point('00:00', 1.5), point('01:00', 2.25, true)],
  total_kwh: 3.75,
  total_cost: 1.88,
  total: { kwh: [0, 0, 3.75, 0, 0], cost: [0, 0, 1.88, 0, 0] },
  yoy: { label: '同比', start: '2025-11-25 00:00:00', end: '2025-11-25 02:00:00', kwh: 0, cost: 0, complete: true, kwh_change: null, cost_change: null },
  mom: { label: '环比', start: '2026-11-24 00:00:00', end: '2026-11-24 02:00:00', kwh: 3, cost: 1.5, complete: true, kwh_change: 25, cost_change: 25.33 },
};

const TABLE: EnergyTable = {
  rows: [
    {
      device_sysno: 11,
      name: '总进线',
      building_sysno: 3,
      building_name: 'B座',
      incoming_main: true,
      start_reading: 100,
      end_reading: 103.75,
      kwh: 3.75,
      cost: 1.88,
      estimated: true,
      reset: false,
      implausible: false,
    },
  ],
  total_kwh: 3.75,
  total_cost: 1.88,
  losses: [{ building_sysno: 3, building_name: 'B座', main_kwh: 3.75, branch_kwh: 3.5, loss_kwh: 0.25, loss_ratio: 6.67 }],
};

afterEach(() => vi.unstubAllGlobals());

describe('能耗统计', () => {
  it('counts the first project by default and shows totals, comparisons, flags, losses and the missing tariff', async () => {
    const { calls } = stubApi({
      '/api/CustomerProject/GetProjectAndBuildingGatewayList': TREE,
      '/api/CustomerDevice/GetDeviceList': { dataSource: [], totalCount: 0 },
      '/api/CustomerEnergy/GetEnergyChart': CHART,
      '/api/CustomerEnergy/GetEnergyRanking': [{ sysno: 11, name: '总进线', kwh: 3.75, cost: 1.88, share: 100 }],
      '/api/CustomerEnergy/GetEnergyTable': TABLE,
    });
    renderInApp(<EnergyPage />);
    // The card shows a skeleton while loading: look the statistic up again each time.
    await waitFor(() => expect(screen.getByTestId('energy-total-kwh')).toHaveTextContent('3.75'));
    const sent = JSON.parse(String(calls.find((c) => c.url.endsWith('/GetEnergyChart'))?.init.body));
    expect(sent).toMatchObject({ project_sysno: 1, view: 'day', resolution: 'hour', end_date: null });
    expect(sent.building_sysno).toBeUndefined();
    expect(screen.getByTestId('energy-yoy-base')).toHaveTextContent('去年同期无用电，无法比较');
    expect(screen.getByTestId('energy-mom-base')).toHaveTextContent('上期 3.00 kWh');
    expect(screen.getByText('+25.00%')).toBeInTheDocument();
    expect(screen.getByTestId('energy-flags')).toHaveTextContent('含估算');
    expect(screen.getByText(/该项目未设置电价方案/)).toBeInTheDocument();
    const losses = await screen.findByTestId('energy-losses');
    expect(within(losses).getByText('6.67%')).toBeInTheDocument();
    const row = screen.getByTestId('energy-table').querySelector<HTMLElement>('tr.ant-table-row') as HTMLElement;
    expect(within(row).getByText('含估算')).toBeInTheDocument();
    // its name, and its mark as the building's incoming main
    expect(within(row).getAllByText('总进线')).toHaveLength(2);

    const user = userEvent.setup();
    await user.click(within(screen.getByTestId('energy-unit')).getByText('¥'));
    expect(screen.getByText('用电趋势（元）')).toBeInTheDocument();
    expect(screen.getByTestId('energy-mom-base')).toHaveTextContent('上期 ¥1.50');
    expect(screen.getByText('+25.33%')).toBeInTheDocument();
  });

  it('counts a building once it is clicked in the tree', async () => {
    const { calls } = stubApi({
      '/api/CustomerProject/GetProjectAndBuildingGatewayList': TREE,
      '/api/CustomerDevice/GetDeviceList': { dataSource: [], totalCount: 0 },
      '/api/CustomerEnergy/GetEnergyChart': { ...CHART, priced: true },
      '/api/CustomerEnergy/GetEnergyRanking': [],
      '/api/CustomerEnergy/GetEnergyTable': { rows: [], total_kwh: 0, total_cost: 0, losses: [] },
    });
    renderInApp(<EnergyPage />);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('scope-b-1-3'));
    await waitFor(() =>
      expect(calls.some((c) => c.url.endsWith('/GetEnergyTable') && JSON.parse(String(c.init.body)).building_sysno === 3)).toBe(true),
    );
    expect(screen.queryByText(/该项目未设置电价方案/)).toBeNull();
    expect(await screen.findByText('暂无设备')).toBeInTheDocument();
  });
});
