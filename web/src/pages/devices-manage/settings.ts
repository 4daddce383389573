import type { DeviceRead, DeviceUpdate } from '@/api/schema';
import { monitoring } from '@/locales/zh-CN';

export type SettingKey =
  | 'rated_current'
  | 'over_voltage'
  | 'under_voltage'
  | 'over_current'
  | 'leakage_limit'
  | 'temperature_limit'
  | 'power_limit';

export interface SettingField {
  key: SettingKey;
  label: string;
  unit: string;
  min: number;
  max: number;
  step: number;
}

/** The device settings and the ranges the server accepts (docs/api.md). */
export const SETTING_FIELDS: SettingField[] = [
  { key: 'rated_current', label: monitoring.ratedCurrent, unit: 'A', min: 0.1, max: 6300, step: 1 },
  { key: 'over_voltage', label: monitoring.overVoltage, unit: 'V', min: 100, max: 500, step: 1 },
  { key: 'under_voltage', label: monitoring.underVoltage, unit: 'V', min: 50, max: 400, step: 1 },
  { key: 'over_current', label: monitoring.overCurrent, unit: 'A', min: 0.1, max: 6300, step: 1 },
  { key: 'leakage_limit', label: monitoring.leakageLimit, unit: 'mA', min: 1, max: 1000, step: 1 },
  { key: 'temperature_limit', label: monitoring.temperatureLimit, unit: '°C', min: 20, max: 200, step: 1 },
  { key: 'power_limit', label: monitoring.powerLimit, unit: 'W', min: 1, max: 5_000_000, step: 100 },
];

export type SettingsForm = { name: string } & Partial<Record<SettingKey, number | null>>;

export function settingsOf(device: DeviceRead): SettingsForm {
  const form: SettingsForm = { name: device.name };
  for (const field of SETTING_FIELDS) form[field.key] = device[field.key];
  return form;
}

/** The update body: every setting is sent, an empty one as null (no threshold). */
export function toUpdate(sysno: number, form: SettingsForm): DeviceUpdate & { sysno: number } {
  const body: DeviceUpdate & { sysno: number } = { sysno, name: form.name.trim() };
  for (const field of SETTING_FIELDS) body[field.key] = form[field.key] ?? null;
  return body;
}

/** The message for a value outside its range, or null when it is empty or fits. */
export function rangeError(field: SettingField, value: number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value < field.min || value > field.max) return monitoring.range(field.label, field.min, field.max, field.unit);
  return null;
}

/** Under-voltage must stay below over-voltage when both are set. */
export function voltageOrderError(form: SettingsForm): string | null {
  const { under_voltage: under, over_voltage: over } = form;
  if (under === null || under === undefined || over === null || over === undefined) return null;
  return under < over ? null : monitoring.underBelowOver;
}
