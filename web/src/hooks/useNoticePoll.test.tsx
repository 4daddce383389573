import { handlePush, PUSHED_TOAST_SECONDS } from './useNoticePoll';

const base = { unread_count: 3, sysno: 9, source_sysno: 4, notice_detail: '过流告警' };

describe('pushed notices', () => {
  it('an alarm gets the alarm treatment, anything else the toast, nothing unpushed', () => {
    const alarm = vi.fn();
    const other = vi.fn();
    handlePush({ ...base, is_push: 1, notice_type: 2 }, { alarm, other });
    handlePush({ ...base, is_push: 1, notice_type: 3 }, { alarm, other });
    handlePush({ ...base, is_push: 0, notice_type: 2 }, { alarm, other });
    handlePush(undefined, { alarm, other });
    expect(alarm).toHaveBeenCalledTimes(1);
    expect(other).toHaveBeenCalledTimes(1);
    expect(other.mock.calls[0][0].notice_type).toBe(3);
    expect(PUSHED_TOAST_SECONDS).toBe(15);
  });
});
