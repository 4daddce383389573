import type { DeviceRead } from '@/api/schema';
import {
  formatAgo,
  formatDuration,
  formatTime,
  formatPhases,
  formatPower,
  formatValue,
  isOnline,
  onlineLabel,
  parseServerTime,
  serverNow,
  phaseValues,
  switchLabel,
} from './format';

function device(values: Partial<DeviceRead>): DeviceRead {
  return { sysno: 1, device_id: '1', name: '回路1', phases: 1, online: 1, switch_state: 1, ...values } as DeviceRead;
}

describe('formatValue', () => {
  it('shows a dash for readings the device did not send', () => {
    expect(formatValue(null, 'V')).toBe('—');
    expect(formatValue(undefined, 'V')).toBe('—');
    expect(formatValue(Number.NaN, 'V')).toBe('—');
  });
  it('rounds to the given digits and adds the unit', () => {
    expect(formatValue(220.04, 'V')).toBe('220.0 V');
    expect(formatValue(3.456, 'A', 2)).toBe('3.46 A');
    expect(formatValue(0, 'mA')).toBe('0.0 mA');
    expect(formatValue(0.9251, '', 3)).toBe('0.925');
  });
  it('shows power in W below 10 kW and in kW above', () => {
    expect(formatPower(950.4)).toBe('950 W');
    expect(formatPower(14534.3)).toBe('14.53 kW');
    expect(formatPower(null)).toBe('—');
  });
});

describe('online and switch labels', () => {
  it('treats 0 as offline and any other code as online', () => {
    expect(onlineLabel(0)).toBe('离线');
    expect(onlineLabel(1)).toBe('在线');
    expect(onlineLabel(2)).toBe('在线');
    expect(isOnline(null)).toBe(false);
  });
  it('names the switch state, unknown when not reported', () => {
    // A state reads differently from the 合闸 / 分闸 buttons that change it.
    expect(switchLabel(1)).toBe('已合闸');
    expect(switchLabel(0)).toBe('已分闸');
    expect(switchLabel(null)).toBe('未知');
  });
});

describe('per-phase values', () => {
  it('gives a single-phase device its one value', () => {
    const single = device({ voltage: 221.3 });
    expect(phaseValues(single, 'voltage')).toEqual([{ phase: '', value: 221.3 }]);
    expect(formatPhases(single, 'voltage')).toBe('221.3 V');
  });
  it('gives a three-phase device A, B and C', () => {
    const three = device({ phases: 3, current_a: 23.611, current_b: 24.1, current_c: null });
    expect(phaseValues(three, 'current').map((p) => p.phase)).toEqual(['A', 'B', 'C']);
    expect(formatPhases(three, 'current')).toBe('A 23.61 / B 24.10 / C — A');
  });
  it('falls back to the total when a three-phase device reports no phases', () => {
    expect(formatPhases(device({ phases: 3, voltage: 380.2 }), 'voltage')).toBe('380.2 V');
    expect(formatPhases(device({ phases: 3 }), 'voltage')).toBe('—');
  });
});

describe('durations', () => {
  it.each([
    [0, '0秒'],
    [45, '45秒'],
    [60, '1分'],
    [312, '5分12秒'],
    [3600, '1小时'],
    [3900, '1小时5分'],
    [86_400, '1天'],
    [183_600, '2天3小时'],
    [-5, '0秒'],
  ])('%i s is %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
  it('says how long ago a server time was', () => {
    const now = new Date('2026-11-21T05:10:00Z');
    expect(formatAgo('2026-11-21 13:09:58', now)).toBe('刚刚');
    expect(formatAgo('2026-11-21 13:06:48', now)).toBe('3分12秒前');
    expect(formatAgo(null, now)).toBe('从未上报');
    expect(formatAgo('not a time', now)).toBe('not a time');
  });
  it('reads server times in Asia/Shanghai whatever the browser time zone', () => {
    expect(parseServerTime('2026-11-21 13:10:00').toISOString()).toBe('2026-11-21T05:10:00.000Z');
  });
  it("takes today from the customer's time zone: 17:30 UTC is already tomorrow in Shanghai", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-24T17:30:00Z'));
    try {
      expect(serverNow().format('YYYY-MM-DD HH:mm')).toBe('2026-11-25 01:30');
    } finally {
      vi.useRealTimers();
    }
  });
  it('formats a browser instant (a refresh, a click) in the project time zone, as the server writes its times', () => {
    const instant = new Date('2026-11-25T17:46:05Z');
    expect(formatTime(instant)).toBe('2026-11-26 01:46:05');
    expect(formatTime(instant.getTime(), 'HH:mm:ss')).toBe('01:46:05');
    // Round trip with the server's format.
    expect(formatTime(parseServerTime('2026-11-21 13:10:00'))).toBe('2026-11-21 13:10:00');
  });
});
