import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PlanRead } from '@/api/schema';
import { renderInApp, stubApi } from '@/test/render';
import TariffListPage from './index';

const PLAN: PlanRead = {
  sysno: 1,
  name: '广东一般工商业分时电价（示意）',
  remark: null,
  is_default: true,
  create_time: '2026-11-01 08:00:00',
  projects: ['阳光实验学校'],
  versions: [
    {
      sysno: 10,
      effective_date: '2024-01-01',
      prices: { sharp: 1.3682, peak: 1.1402, flat: 0.6743, valley: 0.2698, deep: null },
      seasons: [{ name: '全年', months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], slots: '3'.repeat(16) + '2'.repeat(32) }],
      holidays: null,
      editable: false,
    },
  ],
};

afterEach(() => vi.unstubAllGlobals());

describe('电价管理', () => {
  it('lists plans with their prices in force, and sends a new plan as the API takes it', async () => {
    const { calls } = stubApi({
      '/api/CustomerEnergy/GetTariffPlanList': { dataSource: [PLAN], totalCount: 1 },
      '/api/CustomerEnergy/AddTariffPlan': PLAN,
    });
    renderInApp(<TariffListPage />);
    const row = (await screen.findByText(PLAN.name)).closest('tr') as HTMLElement;
    expect(within(row).getByText('默认')).toBeInTheDocument();
    expect(within(row).getByText('谷 0.2698')).toBeInTheDocument();
    expect(within(row).queryByText(/深谷/)).toBeNull();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /新建方案/ }));
    const dialog = await screen.findByTestId('plan-modal');
    await user.type(within(dialog).getByLabelText('方案名称'), '平价');
    // 平 is used by the all-平 first season, so its price is asked for before anything is sent.
    expect(within(dialog).getByTestId('version-problems')).toHaveTextContent('已使用“平”时段，请填写其电价');
    await user.type(dialog.querySelector<HTMLInputElement>('#tariff-plan_version_prices_flat') as HTMLInputElement, '0.6');
    await waitFor(() => expect(within(dialog).queryByTestId('version-problems')).toBeNull());
    await user.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/AddTariffPlan'))).toBe(true));
    const sent = JSON.parse(String(calls.find((c) => c.url.endsWith('/AddTariffPlan'))?.init.body));
    expect(sent).toMatchObject({ name: '平价', is_default: false, version: { prices: { flat: 0.6, peak: null }, holidays: null } });
    expect(sent.version.seasons).toEqual([{ name: '季节1', months: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], slots: '2'.repeat(48) }]);
  });

  it('opens the editor on the plan clicked, not on what the last dialog held', async () => {
    stubApi({
      '/api/CustomerEnergy/GetTariffPlanList': { dataSource: [PLAN], totalCount: 1 },
      '/api/CustomerEnergy/GetTariffPlan': PLAN,
    });
    renderInApp(<TariffListPage />);
    const user = userEvent.setup();
    await screen.findByText(PLAN.name);
    await user.click(screen.getByRole('button', { name: /新建方案/ }));
    await user.type(within(await screen.findByTestId('plan-modal')).getByLabelText('方案名称'), '草稿');
    await user.click(screen.getByRole('button', { name: /取\s*消/ }));
    await user.click(screen.getByRole('button', { name: '编辑' }));
    // The closed dialog may still be fading out: the editor is the one showing the versions.
    const versions = await screen.findByTestId('plan-versions');
    const editor = versions.closest('[data-testid="plan-modal"]') as HTMLElement;
    expect(within(editor).getByLabelText('方案名称')).toHaveValue(PLAN.name);
    expect(within(versions).getByText('2024-01-01 起')).toBeInTheDocument();
  });
});
