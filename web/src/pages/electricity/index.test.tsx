import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { brandWith, renderInApp, stubApi } from '@/test/render';
import ElectricityPage from './index';

const ACCOUNT = {
  project_sysno: 1, project_name: '科创园办公楼', device_id: '1', gateway_sn: 'GW1', holder_mobile: null, notify_holder: false,
  charge_type: 1, charge_type_name: '预付费', flat_price: null, warn_balance: 20, cutoff_balance: 0, overdraft_limit: 0,
  keep_power: false, state: 1, state_name: '正常', charged_kwh: 0, power: 'on', power_name: '供电', switch_state: 1, low: false,
  last_recharge_time: null, remark: null, create_time: '2026-11-20 10:00:00',
};
const ROWS = [
  { ...ACCOUNT, sysno: 1, device_sysno: 11, device_name: '101室', holder_name: '张三', balance: 88.5 },
  { ...ACCOUNT, sysno: 2, device_sysno: 12, device_name: '102室', holder_name: '李四', balance: 3.2, low: true, power: 'cut', power_name: '已断电', keep_power: true },
];
const ANSWERS = {
  '/api/CustomerElectricity/GetBillingOptions': {
    charge_type: [{ value: 1, label: '预付费' }],
    state: [],
    power: [{ value: 'on', label: '供电' }],
    entry_kind: [],
    method: [{ value: 'cash', label: '现金' }, { value: 'wechat', label: '微信' }],
    business_type: [{ value: 1, label: '补电' }],
    bill_status: [],
  },
  '/api/CustomerElectricity/GetAccountList': { dataSource: ROWS, totalCount: 2 },
  '/api/CustomerElectricity/Recharge': { count: 2, restores: 1 },
  '/api/CustomerProject/GetFilterProjectList': [],
};

function bodies(calls: { url: string; init: RequestInit }[], path: string) {
  return calls.filter((c) => c.url.includes(path)).map((c) => JSON.parse(String(c.init.body)) as Record<string, unknown>);
}

afterEach(() => vi.unstubAllGlobals());

describe('电费管理 accounts', () => {
  it('shows a low balance in red and the power and 保电 tags', async () => {
    stubApi(ANSWERS);
    renderInApp(<ElectricityPage />, { brand: brandWith({ eletricList: true }), path: '/user-manage/electricity' });
    const low = await screen.findByText('¥3.20');
    expect(low.closest('.ant-typography')).toHaveClass('ant-typography-danger');
    expect(screen.getByText('¥88.50').closest('.ant-typography')).not.toHaveClass('ant-typography-danger');
    const row = low.closest('tr') as HTMLElement;
    expect(within(row).getByText('已断电')).toBeInTheDocument();
    expect(within(row).getByText('保电')).toBeInTheDocument();
  });

  it('recharges the selected accounts together', async () => {
    const { calls } = stubApi(ANSWERS);
    renderInApp(<ElectricityPage />, { brand: brandWith({ eletricList: true }), path: '/user-manage/electricity' });
    await screen.findByText('¥3.20');
    const user = userEvent.setup();
    expect(screen.getByTestId('batch-recharge')).toBeDisabled();
    for (const name of ['张三', '李四']) {
      const row = screen.getByText(name).closest('tr') as HTMLElement;
      await user.click(row.querySelector('.ant-checkbox-input') as HTMLInputElement);
    }
    expect(await screen.findByText('已选 2 个账户')).toBeInTheDocument();
    await user.click(screen.getByTestId('batch-recharge'));
    const dialog = await screen.findByTestId('recharge-modal');
    expect(within(dialog).getByText('批量充值（2 个账户）')).toBeInTheDocument();
    await user.type(within(dialog).getByTestId('recharge-amount'), '12.345');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(bodies(calls, '/Recharge')).toHaveLength(1));
    // two decimals, as the server takes money
    expect(bodies(calls, '/Recharge')[0]).toEqual({ account_sysnos: [1, 2], amount: 12.35, method: 'cash', remark: null });
    expect(await screen.findByText('已充值 2 个账户，1 个将复电')).toBeInTheDocument();
  }, 20_000);

  it('asks nothing of the server for an amount left empty', async () => {
    const { calls } = stubApi(ANSWERS);
    renderInApp(<ElectricityPage />, { brand: brandWith({ eletricList: true }), path: '/user-manage/electricity' });
    await screen.findByText('¥3.20');
    const user = userEvent.setup();
    await user.click(screen.getAllByTestId('row-recharge')[0]);
    const dialog = await screen.findByTestId('recharge-modal');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('请输入金额（元）')).toBeInTheDocument();
    expect(bodies(calls, '/Recharge')).toHaveLength(0);
  }, 20_000);

  it('asks in 新建业务 for what the chosen business type needs', async () => {
    const { calls } = stubApi({
      ...ANSWERS,
      '/api/CustomerElectricity/GetBillingOptions': {
        ...ANSWERS['/api/CustomerElectricity/GetBillingOptions'],
        business_type: [{ value: 1, label: '补电' }, { value: 2, label: '换表' }, { value: 3, label: '过户' }, { value: 4, label: '销户' }],
      },
      '/api/CustomerElectricity/GetOrderList': { dataSource: [], totalCount: 0 },
      '/api/CustomerElectricity/AddOrder': {},
    });
    renderInApp(<ElectricityPage />, { brand: brandWith({ eletricList: true }), path: '/user-manage/electricity?tab=orders' });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('order-add'));
    const dialog = await screen.findByTestId('order-modal');
    expect(await within(dialog).findByText('补电金额（元）')).toBeInTheDocument();
    await user.click(within(dialog).getByTestId('order-type'));
    const options = await screen.findAllByTitle('过户');
    await user.click(options.find((el) => el.classList.contains('ant-select-item-option')) as HTMLElement);
    expect(await within(dialog).findByText('新户主姓名')).toBeInTheDocument();
    expect(within(dialog).queryByText('补电金额（元）')).toBeNull();
    // the new holder's name is required; nothing is sent without it
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('请选择电费账户')).toBeInTheDocument();
    expect(await within(dialog).findByText('请输入新户主姓名')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.includes('/AddOrder'))).toHaveLength(0);
  }, 20_000);
});
