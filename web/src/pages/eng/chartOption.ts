import type { EChartsCoreOption } from 'echarts/core';
import type { ChartPoint, EnergyChart, PeriodSums, QuarterRead } from '@/api/schema';
import { FLAT, PERIODS, periodColor, periodName, type Period } from '@/constants/periods';
import { energy } from '@/locales/zh-CN';
import { escapeHtml } from '@/utils/html';

/** What the bars measure: energy (kWh) or its cost (¥). */
export type Unit = 'kwh' | 'cost';

export const UNIT_NAMES: Record<Unit, string> = energy.unitNames;

/** Diagonal hatching for bars whose energy is partly estimated. */
export const HATCH = { symbol: 'rect', symbolSize: 1, color: 'rgba(255, 255, 255, 0.7)', dashArrayX: [1, 0], dashArrayY: [2, 4], rotation: -Math.PI / 4 };

export const FLAG_STYLES = {
  estimated: { name: energy.estimated, symbol: 'circle', color: '#FAAD14' },
  reset: { name: energy.reset, symbol: 'triangle', color: '#F5222D' },
  implausible: { name: energy.implausible, symbol: 'diamond', color: '#722ED1' },
} as const;

type Flag = keyof typeof FLAG_STYLES;
const FLAGS: Flag[] = ['estimated', 'reset', 'implausible'];

/** A number with a fixed number of decimals and thousands separators. */
export function formatNumber(value: number, digits = 2): string {
  return value.toLocaleString('zh-CN', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A value in the unit: "12.34 kWh" or "¥12.34". */
export function formatIn(unit: Unit, value: number): string {
  return unit === 'kwh' ? `${formatNumber(value)} kWh` : `¥${formatNumber(value)}`;
}

/** A change in percent with its sign; null (nothing to compare with) as a dash. */
export function formatChange(change: number | null): string {
  if (change === null) return '—';
  return `${change > 0 ? '+' : ''}${change.toFixed(2)}%`;
}

/** The periods any point used (in the unit), so an unpriced project's chart shows 平 only; 平 when nothing was used. */
export function usedPeriods(points: PeriodSums[], unit: Unit): Period[] {
  const used = PERIODS.filter((p) => points.some((point) => point[unit][p] > 0));
  return used.length > 0 ? used : [FLAT];
}

/** Each period's part of the total, in the unit (periods that used nothing left out). */
export function periodShares(total: PeriodSums, unit: Unit): { period: Period; value: number; share: number }[] {
  const sum = total[unit].reduce((a, b) => a + b, 0);
  return PERIODS.filter((p) => total[unit][p] > 0).map((period) => ({
    period,
    value: total[unit][period],
    share: sum > 0 ? (total[unit][period] / sum) * 100 : 0,
  }));
}

/** The flags of a point as the tooltip and legend word them. */
export function flagTexts(point: Pick<ChartPoint, Flag>): string[] {
  return FLAGS.filter((flag) => point[flag]).map((flag) => FLAG_STYLES[flag].name);
}

/** The tooltip of one bar: its periods (those used), the total and what is flagged. */
export function tooltipHtml(point: ChartPoint, unit: Unit): string {
  const dot = (color: string) =>
    `<span style="display:inline-block;width:8px;height:8px;border-radius:50%;background:${color};margin-right:6px"></span>`;
  const rows = PERIODS.filter((p) => point.kwh[p] > 0 || point.cost[p] > 0).map(
    (p) => `${dot(periodColor(p))}${periodName(p)}：${formatIn(unit, point[unit][p])}`,
  );
  const total = unit === 'kwh' ? point.total_kwh : point.total_cost;
  const flags = FLAGS.filter((flag) => point[flag]).map((flag) => `${dot(FLAG_STYLES[flag].color)}${FLAG_STYLES[flag].name}`);
  return [`<b>${escapeHtml(point.label)}</b>`, ...rows, `${energy.total}：<b>${formatIn(unit, total)}</b>`, ...flags].join('<br/>');
}

/** The index of the point an ECharts axis tooltip is about. */
export function hoveredIndex(params: unknown): number {
  const first: unknown = Array.isArray(params) ? params[0] : params;
  if (typeof first === 'object' && first !== null && 'dataIndex' in first && typeof first.dataIndex === 'number') {
    return first.dataIndex;
  }
  return -1;
}

/** A slider for charts too dense for the width: the window ends at the last bar that used something. */
function zoomWindow(values: number[], shown: number) {
  if (values.length <= shown) return undefined;
  let last = values.length - 1;
  while (last > 0 && values[last] <= 0) last -= 1;
  const end = Math.max(last, shown - 1);
  return [{ type: 'slider', height: 18, bottom: 6, startValue: end - shown + 1, endValue: end, brushSelect: false }];
}

interface ChartOptions {
  /** A narrow screen: fewer bars at once, with a slider. */
  compact: boolean;
}

/**
 * The 能耗统计 chart: one bar per point stacked by tariff period, hatched and lighter where the energy
 * is partly estimated, with a marker above each point holding an estimated, reset or implausible interval.
 */
export function energyChartOption(chart: Pick<EnergyChart, 'points'>, unit: Unit, { compact }: ChartOptions): EChartsCoreOption {
  const points = chart.points;
  const totals = points.map((p) => (unit === 'kwh' ? p.total_kwh : p.total_cost));
  const bars = usedPeriods(points, unit).map((period) => ({
    name: periodName(period),
    type: 'bar',
    stack: 'total',
    barMaxWidth: 28,
    itemStyle: { color: periodColor(period) },
    emphasis: { focus: 'series' },
    data: points.map((point) => ({
      value: point[unit][period],
      itemStyle: point.estimated ? { opacity: 0.55, decal: HATCH } : undefined,
    })),
  }));
  const markers = FLAGS.filter((flag) => points.some((p) => p[flag])).map((flag) => ({
    name: FLAG_STYLES[flag].name,
    type: 'scatter',
    symbol: FLAG_STYLES[flag].symbol,
    symbolSize: 9,
    symbolRotate: flag === 'reset' ? 180 : 0,
    symbolOffset: [0, -10],
    itemStyle: { color: FLAG_STYLES[flag].color },
    z: 5,
    data: points.map((point, i) => (point[flag] ? totals[i] : null)),
  }));
  const dataZoom = zoomWindow(totals, compact ? 24 : 96);
  return {
    grid: { left: 8, right: 16, top: 40, bottom: dataZoom ? 56 : 8, containLabel: true },
    legend: { type: 'scroll', top: 0, left: 0, right: 0, itemWidth: 14, itemHeight: 10 },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      confine: true,
      formatter: (params: unknown) => {
        const point = points[hoveredIndex(params)];
        return point ? tooltipHtml(point, unit) : '';
      },
    },
    xAxis: { type: 'category', data: points.map((p) => p.label), axisTick: { alignWithLabel: true } },
    // The unit is in the card's title: an axis name would sit under the legend.
    yAxis: { type: 'value', splitLine: { lineStyle: { type: 'dashed' } } },
    dataZoom,
    series: [...bars, ...markers],
  };
}

/** A day's 96 quarter-hours from 00:00, empty where nothing was counted. */
export function dayQuarters(rows: QuarterRead[]): (QuarterRead | null)[] {
  const slots: (QuarterRead | null)[] = Array.from({ length: 96 }, () => null);
  for (const row of rows) {
    const match = / (\d{2}):(\d{2})/.exec(row.start);
    if (!match) continue;
    const index = Number(match[1]) * 4 + Math.floor(Number(match[2]) / 15);
    if (index >= 0 && index < 96) slots[index] = row;
  }
  return slots;
}

export function quarterLabel(index: number): string {
  const minutes = index * 15;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** One device's day: a bar per quarter-hour in its period's colour, hatched where estimated. */
export function quarterChartOption(rows: QuarterRead[], { compact }: ChartOptions): EChartsCoreOption {
  const quarters = dayQuarters(rows);
  return {
    grid: { left: 8, right: 16, top: 28, bottom: compact ? 56 : 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      confine: true,
      formatter: (params: unknown) => {
        const index = hoveredIndex(params);
        const q = quarters[index];
        if (index < 0) return '';
        const head = `<b>${quarterLabel(index)}–${quarterLabel(index + 1)}</b>`;
        if (!q) return `${head}<br/>${energy.quartersEmpty}`;
        const flags = flagTexts(q);
        return [head, `${periodName(q.period)}：${formatIn('kwh', q.kwh)}，${formatIn('cost', q.cost)}`, ...flags].join('<br/>');
      },
    },
    // A label every two hours (every hour while the slider shows eight).
    xAxis: {
      type: 'category',
      data: quarters.map((_, i) => quarterLabel(i)),
      axisTick: { alignWithLabel: true },
      axisLabel: { interval: compact ? 3 : 7 },
    },
    yAxis: { type: 'value', name: 'kWh', splitLine: { lineStyle: { type: 'dashed' } } },
    dataZoom: compact ? zoomWindow(quarters.map((q) => q?.kwh ?? 0), 32) : undefined,
    series: [
      {
        name: energy.consumption,
        type: 'bar',
        barMaxWidth: 14,
        data: quarters.map((q) => ({
          value: q?.kwh ?? 0,
          itemStyle: {
            color: periodColor(q?.period ?? FLAT),
            ...(q?.estimated ? { opacity: 0.55, decal: HATCH } : {}),
          },
        })),
      },
    ],
  };
}
