import dayjs, { type Dayjs } from 'dayjs';
import type { DeviceRead } from '@/api/schema';
import { monitoring } from '@/locales/zh-CN';

export const EMPTY = '—';

/**
 * The projects' time zone (a project's default; the server writes every time in it, docs/api.md).
 * Every time on screen is a wall clock of this zone, whatever the browser's zone is.
 */
export const PROJECT_TIME_ZONE = 'Asia/Shanghai';

/** Asia/Shanghai has kept UTC+8 all year since 1991, so a server time parses with a fixed offset. */
const SERVER_UTC_OFFSET = '+08:00';

const PROJECT_CLOCK = new Intl.DateTimeFormat('en-CA', {
  timeZone: PROJECT_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/**
 * An instant as the project's wall clock: a Dayjs whose fields (date, hour…) read as they do in the
 * project's time zone, for formatting and date arithmetic; not for comparing with browser instants.
 */
export function projectClock(instant: Date | number = Date.now()): Dayjs {
  const parts: Record<string, string> = {};
  for (const part of PROJECT_CLOCK.formatToParts(new Date(instant))) parts[part.type] = part.value;
  return dayjs(`${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`);
}

/** The one formatter of instants the browser knows (now, a refresh, a click): in the project's time zone. */
export function formatTime(instant: Date | number, pattern = 'YYYY-MM-DD HH:mm:ss'): string {
  return projectClock(instant).format(pattern);
}

/** Now as a wall clock in the project's time zone (its date is "today" for the customer, whatever the browser's zone). */
export function serverNow(): Dayjs {
  return projectClock();
}

/** A server time (`YYYY-MM-DD HH:mm:ss`, project time zone) as an instant. */
export function parseServerTime(time: string): Date {
  return new Date(`${time.replace(' ', 'T')}${SERVER_UTC_OFFSET}`);
}

/** A reading with its unit and a fixed number of decimals; `—` when the device did not report it. */
export function formatValue(value: number | null | undefined, unit = '', digits = 1): string {
  if (value === null || value === undefined || Number.isNaN(value)) return EMPTY;
  const text = value.toFixed(digits);
  return unit ? `${text} ${unit}` : text;
}

/** Active power in W below 10 kW, else in kW. */
export function formatPower(watts: number | null | undefined): string {
  if (watts === null || watts === undefined) return EMPTY;
  return Math.abs(watts) >= 10_000 ? formatValue(watts / 1000, 'kW', 2) : formatValue(watts, 'W', 0);
}

/** Device online flag: 0 is offline, anything else online. */
export function isOnline(flag: number | null | undefined): boolean {
  return flag !== 0 && flag !== null && flag !== undefined;
}

export function onlineLabel(flag: number | null | undefined): string {
  return isOnline(flag) ? monitoring.online : monitoring.offline;
}

export function switchLabel(state: number | null | undefined): string {
  if (state === 1) return monitoring.switchOn;
  if (state === 0) return monitoring.switchOff;
  return monitoring.switchUnknown;
}

export type PhasedQuantity = 'voltage' | 'current';

export interface PhaseValue {
  /** '' for a single-phase device, else A, B or C. */
  phase: '' | 'A' | 'B' | 'C';
  value: number | null;
}

/**
 * The per-phase values of a three-phase device (falling back to the total when no phase was
 * reported), or the single value of a single-phase one.
 */
export function phaseValues(device: DeviceRead, quantity: PhasedQuantity): PhaseValue[] {
  const phases: PhaseValue[] = [
    { phase: 'A', value: device[`${quantity}_a` as const] ?? null },
    { phase: 'B', value: device[`${quantity}_b` as const] ?? null },
    { phase: 'C', value: device[`${quantity}_c` as const] ?? null },
  ];
  if (device.phases === 3 && phases.some((p) => p.value !== null)) return phases;
  return [{ phase: '', value: device[quantity] ?? null }];
}

/** `220.1 V` for one phase, `A 220.1 / B 221.0 / C 219.8 V` for three. */
export function formatPhases(device: DeviceRead, quantity: PhasedQuantity): string {
  const unit = quantity === 'voltage' ? 'V' : 'A';
  const digits = quantity === 'voltage' ? 1 : 2;
  const values = phaseValues(device, quantity);
  if (values.length === 1) return formatValue(values[0].value, unit, digits);
  if (values.every((v) => v.value === null)) return EMPTY;
  return `${values.map((v) => `${v.phase} ${formatValue(v.value, '', digits)}`).join(' / ')} ${unit}`;
}

/** A span of seconds as Chinese text: 45秒, 5分12秒, 1小时5分, 2天3小时. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (days > 0) return hours > 0 ? `${days}天${hours}小时` : `${days}天`;
  if (hours > 0) return minutes > 0 ? `${hours}小时${minutes}分` : `${hours}小时`;
  if (minutes > 0) return rest > 0 ? `${minutes}分${rest}秒` : `${minutes}分`;
  return `${rest}秒`;
}

/** How long ago a server time (`YYYY-MM-DD HH:mm:ss`, customer time zone) was, e.g. `3分12秒前`. */
export function formatAgo(time: string | null | undefined, now: Date = new Date()): string {
  if (!time) return monitoring.never;
  const then = parseServerTime(time);
  if (Number.isNaN(then.getTime())) return time;
  const seconds = (now.getTime() - then.getTime()) / 1000;
  return seconds < 5 ? '刚刚' : `${formatDuration(seconds)}前`;
}
