import type { EChartsCoreOption } from 'echarts/core';
import type { DeviceTrend, TrendSeries } from '@/api/schema';
import { monitoring } from '@/locales/zh-CN';
import { axisRange } from '@/utils/axisRange';
import { chartPalette } from '@/components/charts/palette';

export type TrendGroup = 'voltage' | 'current' | 'power' | 'temperature' | 'leakage';

export const TREND_GROUPS: { value: TrendGroup; label: string }[] = [
  { value: 'voltage', label: monitoring.voltage },
  { value: 'current', label: monitoring.current },
  { value: 'power', label: monitoring.power },
  { value: 'temperature', label: monitoring.temperature },
  { value: 'leakage', label: monitoring.leakage },
];

const GROUP_KEYS: Record<TrendGroup, RegExp> = {
  voltage: /^voltage(_[abc])?$/,
  current: /^current(_[abc])?$/,
  power: /^active_power$/,
  temperature: /^temperature$/,
  leakage: /^leakage_current$/,
};

/**
 * The series of one chart. A three-phase device reports per phase and its total stays empty,
 * so series without a single value are left out (unless nothing at all was reported).
 */
export function seriesOf(trend: DeviceTrend, group: TrendGroup): TrendSeries[] {
  const all = trend.series.filter((s) => GROUP_KEYS[group].test(s.key));
  const reported = all.filter((s) => s.data.some((v) => v !== null));
  return reported.length > 0 ? reported : all.slice(0, 1);
}

/** Whether the trend holds at least one reading. */
export function hasReadings(trend: DeviceTrend): boolean {
  return trend.series.some((s) => s.data.some((v) => v !== null));
}

/** Bucket start times as `HH:mm` (with the day when the window spans more than one). */
export function axisLabels(times: string[]): string[] {
  const days = new Set(times.map((t) => t.slice(0, 10)));
  return times.map((t) => (days.size > 1 ? `${t.slice(5, 10)} ${t.slice(11, 16)}` : t.slice(11, 16)));
}

/** Phases in the colours of Chinese switchgear: A yellow, B green, C red. */
const PHASE_COLORS: Record<string, string> = { a: '#E6A23C', b: '#67C23A', c: '#F56C6C' };

/** A series' colour: its phase's, else the brand's palette in turn. */
function seriesColor(key: string, index: number, primary: string): string {
  const phase = /_([abc])$/.exec(key)?.[1];
  return phase ? PHASE_COLORS[phase] : chartPalette(primary)[index % 10];
}

/**
 * One quantity over time as lines, with a zoom slider; points are marked only while they are few.
 * The value axis spans a range sensible for the quantity (see axisRange), not just the readings.
 */
export function trendOption(labels: string[], series: TrendSeries[], group: TrendGroup, primary: string): EChartsCoreOption {
  const unit = series[0]?.unit ?? '';
  const range = axisRange(group, series.flatMap((s) => s.data));
  return {
    grid: { left: 48, right: 16, top: 36, bottom: 56 },
    tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? `${v} ${unit}` : '—') },
    legend: { top: 0, data: series.map((s) => s.label) },
    xAxis: { type: 'category', boundaryGap: false, data: labels },
    yAxis: { type: 'value', name: unit, min: range.min, max: range.max },
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 8 }],
    series: series.map((s, i) => ({
      name: s.label,
      type: 'line',
      color: seriesColor(s.key, i, primary),
      showSymbol: s.data.filter((v) => v !== null).length < 40,
      connectNulls: false,
      data: s.data,
    })),
  };
}
