import { act, renderHook } from '@testing-library/react';
import { SMS_RESEND_SECONDS, useCountdown } from './useCountdown';

describe('useCountdown', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('locks for 60 seconds, counting down each second, then resets', () => {
    const { result } = renderHook(() => useCountdown());
    expect(SMS_RESEND_SECONDS).toBe(60);
    expect(result.current.running).toBe(false);
    act(() => result.current.start());
    expect(result.current).toMatchObject({ remaining: 60, running: true });
    act(() => vi.advanceTimersByTime(1000));
    expect(result.current.remaining).toBe(59);
    act(() => vi.advanceTimersByTime(58_000));
    expect(result.current).toMatchObject({ remaining: 1, running: true });
    act(() => vi.advanceTimersByTime(1000));
    expect(result.current).toMatchObject({ remaining: 0, running: false });
    act(() => vi.advanceTimersByTime(5000));
    expect(result.current.remaining).toBe(0);
  });

  it('can be started again after it ends', () => {
    const { result } = renderHook(() => useCountdown(3));
    act(() => result.current.start());
    act(() => vi.advanceTimersByTime(3000));
    expect(result.current.running).toBe(false);
    act(() => result.current.start());
    expect(result.current.remaining).toBe(3);
  });
});
