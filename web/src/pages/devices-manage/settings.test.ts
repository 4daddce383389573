import type { DeviceRead } from '@/api/schema';
import { rangeError, SETTING_FIELDS, settingsOf, toUpdate, voltageOrderError } from './settings';

const field = (key: string) => SETTING_FIELDS.find((f) => f.key === key)!;

describe('device settings', () => {
  it('accepts empty values and values inside the server ranges', () => {
    expect(rangeError(field('rated_current'), null)).toBeNull();
    expect(rangeError(field('rated_current'), 0.1)).toBeNull();
    expect(rangeError(field('over_voltage'), 500)).toBeNull();
  });

  it('refuses values outside with the server message', () => {
    expect(rangeError(field('rated_current'), 0)).toBe('额定电流应在 0.1–6300 A 之间');
    expect(rangeError(field('leakage_limit'), 1001)).toBe('漏电阈值应在 1–1000 mA 之间');
  });

  it('wants under-voltage below over-voltage', () => {
    expect(voltageOrderError({ name: 'x', under_voltage: 190, over_voltage: 250 })).toBeNull();
    expect(voltageOrderError({ name: 'x', under_voltage: 250, over_voltage: 250 })).toBe('欠压阈值应低于过压阈值');
    expect(voltageOrderError({ name: 'x', under_voltage: 260 })).toBeNull();
  });

  it('sends every setting, an empty one as null', () => {
    const device = { sysno: 7, name: '回路1', rated_current: 32, over_voltage: null } as DeviceRead;
    const form = settingsOf(device);
    expect(form).toMatchObject({ name: '回路1', rated_current: 32, over_voltage: null });
    expect(toUpdate(7, { ...form, name: ' 回路一 ', leakage_limit: 30 })).toEqual({
      sysno: 7,
      name: '回路一',
      rated_current: 32,
      over_voltage: null,
      under_voltage: null,
      over_current: null,
      leakage_limit: 30,
      temperature_limit: null,
      power_limit: null,
    });
  });
});
