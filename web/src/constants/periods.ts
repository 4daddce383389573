import type { Prices } from '@/api/schema';
import { periodNames } from '@/locales/zh-CN';

/** A tariff period as the server numbers it: 0 尖, 1 峰, 2 平, 3 谷, 4 深谷. */
export type Period = 0 | 1 | 2 | 3 | 4;

export const PERIODS: readonly Period[] = [0, 1, 2, 3, 4];

/** 平: what a slot table starts as, and what energy counts as where no plan is set. */
export const FLAT: Period = 2;

/** The key of each period in a version's `prices`. */
export const PRICE_KEYS = ['sharp', 'peak', 'flat', 'valley', 'deep'] as const satisfies readonly (keyof Prices)[];

/**
 * One colour per period, the same in the charts, the slot strips and the legends: the dearer, the
 * warmer (red 尖, orange 峰), 平 in the brand's blue, the cheap periods green and teal.
 */
export const PERIOD_COLORS: Record<Period, string> = {
  0: '#F5222D',
  1: '#FA8C16',
  2: '#409EFF',
  3: '#52C41A',
  4: '#13A8A8',
};

export function isPeriod(value: number): value is Period {
  return Number.isInteger(value) && value >= 0 && value <= 4;
}

/** The period of a slot digit ('0'–'4'); anything else counts as 平, as the server refuses it. */
export function periodOfDigit(digit: string): Period {
  const value = Number(digit);
  return digit.length === 1 && isPeriod(value) ? value : FLAT;
}

export function periodName(period: number): string {
  return isPeriod(period) ? periodNames[period] : periodNames[FLAT];
}

export function periodColor(period: number): string {
  return isPeriod(period) ? PERIOD_COLORS[period] : PERIOD_COLORS[FLAT];
}
