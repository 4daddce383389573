import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderInApp, stubApi } from '@/test/render';
import DevicesManagePage from './index';

const TREE = [
  {
    key: 'project-1',
    sysno: 1,
    name: '阳光实验学校',
    type: 'project',
    project_sysno: 1,
    sn: null,
    online: null,
    device_count: 2,
    online_device_count: 1,
    list_child: [
      { key: 'gateway-7', sysno: 7, name: '配电箱', type: 'gateway', project_sysno: 1, sn: 'GW-7', online: 0, device_count: 2, online_device_count: 1, list_child: [] },
    ],
  },
];

const DEVICE = {
  sysno: 11,
  device_id: '1',
  name: '总进线',
  phases: 3,
  online: 1,
  switch_state: 1,
  gateway_name: '配电箱',
  gateway_sn: 'GW-7',
  gateway_online: 1,
  voltage_a: 220.1,
  voltage_b: 221.2,
  voltage_c: 219.3,
  current_a: 10,
  current_b: 11,
  current_c: 12,
  active_power: 7000,
  energy: 123.456,
  leakage_current: 2.5,
  temperature: 30.2,
  last_report_time: null,
};

afterEach(() => vi.unstubAllGlobals());

describe('device monitoring', () => {
  it('shows the tree with online dots and device cards with per-phase values', async () => {
    stubApi({
      '/api/CustomerProject/GetProjectAndBuildingGatewayList': TREE,
      '/api/CustomerDevice/GetDeviceList': { dataSource: [DEVICE, { ...DEVICE, sysno: 12, name: '回路2', phases: 1, online: 0, switch_state: 0, voltage: 220 }], totalCount: 2 },
    });
    renderInApp(<DevicesManagePage />);
    const tree = await screen.findByTestId('project-tree', {}, { timeout: 10_000 });
    expect(await within(tree).findByText('配电箱')).toBeInTheDocument();
    expect(tree.querySelector('[data-online="0"]')).not.toBeNull();
    const cards = await screen.findAllByTestId('device-card');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]).getByText('A 220.1 / B 221.2 / C 219.3 V')).toBeInTheDocument();
    expect(within(cards[0]).getByText('在线')).toBeInTheDocument();
    expect(within(cards[1]).getByText('离线')).toBeInTheDocument();
    expect(within(cards[1]).getByText('已分闸', { selector: '.ant-tag' })).toBeInTheDocument();
  }, 20_000);

  it('narrows the list to the chosen gateway and switches to the table', async () => {
    const { calls } = stubApi({
      '/api/CustomerProject/GetProjectAndBuildingGatewayList': TREE,
      '/api/CustomerDevice/GetDeviceList': { dataSource: [DEVICE], totalCount: 1 },
    });
    renderInApp(<DevicesManagePage />);
    await userEvent.click(await screen.findByText('配电箱', { selector: 'span' }, { timeout: 10_000 }));
    await vi.waitFor(() => {
      const bodies = calls.filter((c) => c.url.endsWith('GetDeviceList')).map((c) => JSON.parse(String(c.init.body)));
      expect(bodies.at(-1)).toMatchObject({ gateway_sysno: 7, pageIndex: 1 });
    });
    await userEvent.click(screen.getByText('列表'));
    expect(await screen.findByTestId('device-table')).toHaveTextContent('7000 W');
  }, 20_000);
});
