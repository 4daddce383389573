import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderInApp, stubApi } from '@/test/render';
import { NoticeDialog, isUnread, jumpTarget } from './NoticeDialog';

const ROWS = [
  { sysno: 11, device_id: '1', device_name: '101宿舍', gateway_name: '配电房网关', notice_detail: '一号园区 101宿舍（1）过流告警', create_time: '2026-11-21 10:00:00', is_read: 0, notice_type: 2, source_sysno: 5 },
  { sysno: 10, device_id: 'GW1', device_name: '配电房网关', gateway_name: '配电房网关', notice_detail: '一号园区 网关 配电房（GW1）离线', create_time: '2026-11-21 09:00:00', is_read: 1, notice_type: 3, source_sysno: 7 },
];

function listAnswer() {
  return { '/api/CustomerNoctice/GetNoticeList': { dataSource: ROWS, totalCount: 2 }, '/api/CustomerNoctice/Cus_BatchReadNotice': { count: 1 } };
}

function bodies(calls: { url: string; init: RequestInit }[], path: string) {
  return calls.filter((c) => c.url.includes(path)).map((c) => JSON.parse(String(c.init.body)) as Record<string, unknown>);
}

describe('system-message dialog', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for types 2 and 3, newest first, no read filter, 10 a page', async () => {
    const { calls } = stubApi(listAnswer());
    renderInApp(<NoticeDialog open onClose={() => {}} onProcessed={() => {}} />);
    await screen.findByText(ROWS[0].notice_detail);
    expect(bodies(calls, 'GetNoticeList')[0]).toEqual({
      pageIndex: 1, pageSize: 10, total: 0, custmoer_notice_type: [2, 3, 4, 5], is_read: null, sort: 'desc', orderBy: 'create_time',
    });
    const unread = screen.getByText('未读');
    const read = screen.getByText('已读');
    expect(unread.className).toContain('red');
    expect(read.className).toContain('green');
  });

  it('names the device with its gateway and number, not a bare bus address', async () => {
    stubApi(listAnswer());
    renderInApp(<NoticeDialog open onClose={() => {}} onProcessed={() => {}} />);
    await screen.findByText(ROWS[0].notice_detail);
    const [device, gateway] = screen.getAllByTestId('notice-device');
    expect(device).toHaveTextContent('101宿舍配电房网关 · 编号 1');
    // A gateway's own notice does not name the gateway twice.
    expect(gateway).toHaveTextContent(/^配电房网关编号 GW1$/);
  });

  it('warns 无可处理项！ and sends nothing when no unread row is selected', async () => {
    const { calls } = stubApi(listAnswer());
    renderInApp(<NoticeDialog open onClose={() => {}} onProcessed={() => {}} />);
    await screen.findByText(ROWS[1].notice_detail);
    fireEvent.click(screen.getByTestId('notice-batch'));
    expect(await screen.findByText('无可处理项！')).toBeInTheDocument();
    // Selecting only the read row keeps nothing.
    const readRow = screen.getByText(ROWS[1].notice_detail).closest('tr')!;
    fireEvent.click(within(readRow).getByRole('checkbox'));
    fireEvent.click(screen.getByTestId('notice-batch'));
    expect(bodies(calls, 'Cus_BatchReadNotice')).toEqual([]);
  });

  it('processes only the unread rows of a selection, then reloads and refreshes the badge', async () => {
    const { calls } = stubApi(listAnswer());
    const onProcessed = vi.fn();
    renderInApp(<NoticeDialog open onClose={() => {}} onProcessed={onProcessed} />);
    await screen.findByText(ROWS[0].notice_detail);
    const header = screen.getAllByRole('checkbox')[0];
    fireEvent.click(header);
    fireEvent.click(screen.getByTestId('notice-batch'));
    await waitFor(() => expect(onProcessed).toHaveBeenCalled());
    expect(bodies(calls, 'Cus_BatchReadNotice')).toEqual([{ notice_sysno: [11], is_read: 1 }]);
    expect(await screen.findByText('处理成功')).toBeInTheDocument();
    await waitFor(() => expect(bodies(calls, 'GetNoticeList').length).toBeGreaterThan(1));
  });

  it('jumps offline notices to the offline log and the rest to the alarms, with sysno', () => {
    expect(jumpTarget({ notice_type: 3, source_sysno: 7 })).toBe('/user-manage/setting/offline-list?sysno=7');
    expect(jumpTarget({ notice_type: 2, source_sysno: 5 })).toBe('/user-manage/alarm-manage?sysno=5');
    expect(jumpTarget({ notice_type: 4, source_sysno: 9 })).toBe('/user-manage/report?tab=centre&sysno=9');
    expect(jumpTarget({ notice_type: 5, source_sysno: 12 })).toBe('/user-manage/electricity?tab=accounts&account=12');
    expect(isUnread({ is_read: 0 })).toBe(true);
    expect(isUnread({ is_read: null as unknown as number })).toBe(true);
    expect(isUnread({ is_read: 1 })).toBe(false);
  });

  it('jump closes the dialog and opens the screen', async () => {
    stubApi(listAnswer());
    const onClose = vi.fn();
    const { router } = renderInApp(<NoticeDialog open onClose={onClose} onProcessed={() => {}} />);
    await screen.findByText(ROWS[0].notice_detail);
    fireEvent.click(screen.getByTestId('notice-jump-11'));
    expect(onClose).toHaveBeenCalled();
    expect(router.state.location.pathname + router.state.location.search).toBe('/user-manage/alarm-manage?sysno=5');
  });
});
