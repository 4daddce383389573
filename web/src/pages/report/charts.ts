import type { EChartsCoreOption } from 'echarts/core';
import { chartPalette } from '@/components/charts/palette';
import { DEFAULT_THEME_COLOR } from '@/brands/defaultBrand';

/** 提示, 重要, 紧急: the colours of the alarm screens. */
export const LEVEL_COLORS = ['#409EFF', '#E6A23C', '#F56C6C'];
export const GOOD = '#67C23A';
export const BAD = '#F56C6C';
export const WAITING = '#909399';
export const BLUE = '#409EFF';
export const ORANGE = '#E6A23C';

export interface StackSeries {
  name: string;
  values: number[];
  color: string;
}

/** Counts per bucket (hour, day or month) as bars stacked by series, a legend above. */
export function stackedOption(labels: string[], series: StackSeries[], mobile: boolean): EChartsCoreOption {
  return {
    grid: { left: 40, right: 12, top: 36, bottom: 28 },
    legend: { top: 0, itemWidth: 12, itemHeight: 10 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'category', data: labels, axisLabel: { hideOverlap: true, fontSize: mobile ? 10 : 12 } },
    yAxis: { type: 'value', minInterval: 1 },
    series: series.map((s) => ({
      name: s.name,
      type: 'bar',
      stack: 'total',
      barMaxWidth: 24,
      data: s.values,
      itemStyle: { color: s.color },
    })),
  };
}

/** Shares of a whole as a ring, each slice's count in the legend; only what has any is drawn. */
export function ringOption(
  title: string,
  items: { name: string; value: number }[],
  mobile: boolean,
  primary: string = DEFAULT_THEME_COLOR,
): EChartsCoreOption {
  const drawn = items.filter((i) => i.value > 0);
  const counts = new Map(drawn.map((i) => [i.name, i.value]));
  return {
    color: chartPalette(primary),
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    legend: {
      type: 'scroll',
      formatter: (name: string) => `${name}  ${counts.get(name) ?? 0}`,
      ...(mobile ? { bottom: 0 } : { orient: 'vertical', right: 8, top: 'middle' }),
    },
    series: [
      {
        name: title,
        type: 'pie',
        radius: ['42%', '70%'],
        center: mobile ? ['50%', '44%'] : ['36%', '50%'],
        label: { show: false },
        data: drawn.map((i) => ({ name: i.name, value: i.value })),
      },
    ],
  };
}

/** Values by name as horizontal bars, the first at the top (a ranking); `max` fixes the axis (100 for rates). */
export function rankedOption(name: string, items: { name: string; value: number }[], unit: string, color: string, max?: number): EChartsCoreOption {
  const rows = [...items].reverse();
  return {
    grid: { left: 8, right: 48, top: 8, bottom: 24, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => `${v}${unit}` },
    xAxis: { type: 'value', max, minInterval: max === undefined ? 1 : undefined },
    yAxis: { type: 'category', data: rows.map((r) => r.name), axisLabel: { width: 96, overflow: 'truncate' } },
    series: [
      {
        name,
        type: 'bar',
        barMaxWidth: 18,
        data: rows.map((r) => r.value),
        itemStyle: { color },
        label: { show: true, position: 'right', formatter: `{c}${unit}` },
      },
    ],
  };
}
