import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EnergyReport, EnergyReportRow } from '@/api/schema';
import { renderInApp, stubApi } from '@/test/render';
import ReportPage from './index';

// jsdom has no canvas: the chart is checked through the energy page's option builder tests.
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

const COMPARISON = { start: '2026-11-24 00:00:00', end: '2026-11-24 02:00:00', complete: true };

const row = (patch: Partial<EnergyReportRow>): EnergyReportRow => ({
  key: 'd-11',
  sysno: 11,
  name: '总进线',
  building_name: 'B座',
  incoming_main: false,
  start_reading: 100,
  end_reading: 110.5,
  kwh: [0, 4, 6.5, 0, 0],
  cost: [0, 4, 3.25, 0, 0],
  total_kwh: 10.5,
  total_cost: 7.25,
  estimated: false,
  reset: false,
  implausible: false,
  ...patch,
});

const REPORT: EnergyReport = {
  project_name: '科创园办公楼',
  group: 'device',
  view: 'day',
  start: '2026-11-25 00:00:00',
  end: '2026-11-26 00:00:00',
  partial: false,
  priced: true,
  periods: ['尖', '峰', '平', '谷', '深谷'],
  total_kwh: 12.75,
  total_cost: 8.38,
  total: { kwh: [0, 4, 8.75, 0, 0], cost: [0, 4, 4.38, 0, 0] },
  yoy: { label: '同比', ...COMPARISON, start: '2025-11-25 00:00:00', end: '2025-11-26 00:00:00', kwh: 0, cost: 0, kwh_change: null, cost_change: null },
  mom: { label: '环比', ...COMPARISON, kwh: 10.2, cost: 6.7, kwh_change: 25, cost_change: 25.07 },
  points: [
    { label: '00:00', start: '2026-11-25 00:00:00', kwh: [0, 4, 8.75, 0, 0], cost: [0, 4, 4.38, 0, 0], total_kwh: 12.75, total_cost: 8.38, estimated: false, reset: false, implausible: false },
  ],
  rows: [
    row({ incoming_main: true }),
    row({ key: 'd-12', sysno: 12, name: '空调', start_reading: null, end_reading: null, kwh: [0, 0, 2.25, 0, 0], cost: [0, 0, 1.13, 0, 0], total_kwh: 2.25, total_cost: 1.13, estimated: true }),
  ],
};

const BY_BUILDING: EnergyReport = {
  ...REPORT,
  group: 'building',
  rows: [row({ key: 'b-3', sysno: 3, name: 'B座', start_reading: null, end_reading: null, kwh: [0, 4, 8.75, 0, 0], total_kwh: 12.75, total_cost: 8.38 })],
};

const ANSWERS = {
  '/api/CustomerProject/GetProjectAndBuildingGatewayList': TREE,
  '/api/CustomerReport/GetEnergyReport': REPORT,
};

const bodyOf = (calls: { url: string; init: RequestInit }[], path: string) =>
  calls.filter((c) => c.url.endsWith(path)).map((c) => JSON.parse(String(c.init.body)));

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

/** Answers `path` with `answer(body)`; every other path as stubApi does (and every call is still recorded). */
function answerPath(fetchStub: ReturnType<typeof stubApi>['fetchStub'], path: string, answer: (body: Record<string, unknown>) => Response) {
  const others = fetchStub.getMockImplementation();
  if (!others) throw new Error('stubApi first');
  fetchStub.mockImplementation(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const recorded = await others(input, init);
    return String(input).endsWith(path) ? answer(JSON.parse(String(init.body))) : recorded;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('报表统计', () => {
  it('reports the first project today by device: totals, comparisons, rows, the periods in use and the marks', async () => {
    const { calls } = stubApi(ANSWERS);
    renderInApp(<ReportPage />);
    await waitFor(() => expect(screen.getByTestId('energy-total-kwh')).toHaveTextContent('12.75'));
    expect(bodyOf(calls, '/GetEnergyReport')[0]).toMatchObject({ project_sysno: 1, building_sysno: null, view: 'day', end_date: null, group: 'device' });
    expect(screen.getByTestId('energy-total-cost')).toHaveTextContent('8.38');
    expect(screen.getByText('+25.00%')).toBeInTheDocument();
    expect(screen.getByTestId('energy-yoy-base')).toHaveTextContent('去年同期无用电，无法比较');
    expect(screen.getByTestId('energy-chart')).toBeInTheDocument();

    const table = screen.getByTestId('report-table');
    const headers = Array.from(table.querySelectorAll('thead th')).map((th) => th.textContent);
    expect(headers).toEqual(expect.arrayContaining(['名称', '建筑', '起始读数 (kWh)', '结束读数 (kWh)', '峰 (kWh)', '平 (kWh)', '用电量 (kWh)', '电费 (元)', '标记']));
    expect(headers).not.toContain('尖 (kWh)');
    expect(headers).not.toContain('谷 (kWh)');
    const [main, aircon] = Array.from(table.querySelectorAll<HTMLElement>('tr.ant-table-row'));
    // its name, and its mark as the building's incoming main
    expect(within(main).getAllByText('总进线')).toHaveLength(2);
    expect(within(main).getByText('110.500')).toBeInTheDocument();
    expect(within(main).getByText('10.50')).toBeInTheDocument();
    expect(within(aircon).getAllByText('—')).toHaveLength(2);
    expect(within(aircon).getByText('含估算')).toBeInTheDocument();
    expect(screen.getByTestId('report-total-kwh')).toHaveTextContent('12.75');
  });

  it('reports by building without the readings, and for the building chosen', async () => {
    const { calls, fetchStub } = stubApi(ANSWERS);
    answerPath(fetchStub, '/GetEnergyReport', (body) =>
      json({ statusCode: 200, message: '操作成功', data: body.group === 'building' ? BY_BUILDING : REPORT }),
    );
    renderInApp(<ReportPage />);
    await screen.findAllByText('空调');
    const user = userEvent.setup();
    await user.click(within(screen.getByTestId('report-group')).getByText('按建筑'));
    await waitFor(() => expect(screen.queryByText('空调')).toBeNull());
    const headers = Array.from(screen.getByTestId('report-table').querySelectorAll('thead th')).map((th) => th.textContent);
    expect(headers).not.toContain('建筑');
    expect(headers).not.toContain('起始读数 (kWh)');
    expect(headers).toContain('峰 (kWh)');

    await user.click(screen.getByTestId('report-building'));
    const options = await screen.findAllByTitle('B座');
    await user.click(options.find((el) => el.classList.contains('ant-select-item-option')) as HTMLElement);
    await waitFor(() => expect(bodyOf(calls, '/GetEnergyReport').at(-1)).toMatchObject({ building_sysno: 3, group: 'building' }));
  });

  it('exports the report shown with the 明细 by hour, saved under the server’s name', async () => {
    const { calls, fetchStub } = stubApi(ANSWERS);
    answerPath(
      fetchStub,
      '/ExportEnergyReport',
      // A text body: jsdom's Blob is not the one fetch's Response reads.
      () =>
        new Response('xlsx', {
          status: 200,
          headers: {
            'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent('科创园办公楼_能耗报表_2026-11-25.xlsx')}`,
          },
        }),
    );
    // jsdom has no object URLs.
    const createObjectURL = vi.fn(() => 'blob:report');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    renderInApp(<ReportPage />);
    await screen.findAllByText('空调');
    expect(screen.getByTestId('report-detail')).toHaveTextContent('按小时');
    const user = userEvent.setup();
    await user.click(screen.getByTestId('report-export'));
    await waitFor(() => expect(saved).toEqual(['科创园办公楼_能耗报表_2026-11-25.xlsx']));
    expect(bodyOf(calls, '/ExportEnergyReport')).toEqual([
      {
        project_sysno: 1,
        building_sysno: null,
        view: 'day',
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        end_date: null,
        resolution: 'hour',
        group: 'device',
        format: 'xlsx',
        detail: 'hour',
      },
    ]);
    const sent = calls.find((c) => c.url.endsWith('/ExportEnergyReport'));
    expect(sent?.init.method).toBe('POST');
    expect(createObjectURL).toHaveBeenCalledTimes(1);
  });

  it('shows why an export was refused', async () => {
    const { calls, fetchStub } = stubApi(ANSWERS);
    answerPath(fetchStub, '/ExportEnergyReport', () => json({ statusCode: 400, message: '导出行数超过上限', data: null }));
    renderInApp(<ReportPage />);
    await screen.findAllByText('空调');
    const user = userEvent.setup();
    await user.click(within(screen.getByTestId('report-detail')).getByText('按小时'));
    await user.click(await screen.findByTitle('按日'));
    await user.click(screen.getByTestId('report-export'));
    expect(await screen.findByText('导出行数超过上限')).toBeInTheDocument();
    expect(bodyOf(calls, '/ExportEnergyReport')[0]).toMatchObject({ detail: 'day' });
    expect(screen.getByTestId('report-export')).not.toHaveClass('ant-btn-loading');
  });
});
