import type { EChartsCoreOption } from 'echarts/core';
import type { AlarmStatistics } from '@/api/schema';
import { alarmStats } from '@/locales/zh-CN';
import { chartPalette } from '@/components/charts/palette';

const LEVEL_COLORS = ['#409EFF', '#E6A23C', '#F56C6C'];

/** Alarms per local day, as bars. */
export function byDayOption(stats: AlarmStatistics): EChartsCoreOption {
  return {
    grid: { left: 40, right: 16, top: 24, bottom: 32 },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'category', data: stats.by_day.map((d) => d.day.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [{ name: alarmStats.count, type: 'bar', barMaxWidth: 24, data: stats.by_day.map((d) => d.count), itemStyle: { color: '#F56C6C' } }],
  };
}

/** Alarms per type (types that occurred), as a ring in the brand's palette. */
export function byTypeOption(stats: AlarmStatistics, primary: string): EChartsCoreOption {
  return {
    color: chartPalette(primary),
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    legend: { type: 'scroll', orient: 'vertical', right: 0, top: 'middle' },
    series: [
      {
        name: alarmStats.byType,
        type: 'pie',
        radius: ['40%', '70%'],
        center: ['40%', '50%'],
        data: stats.by_type.filter((t) => t.count > 0).map((t) => ({ name: t.label, value: t.count })),
      },
    ],
  };
}

/** Alarms per level, as a ring in the level colours. */
export function byLevelOption(stats: AlarmStatistics): EChartsCoreOption {
  return {
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    legend: { bottom: 0 },
    series: [
      {
        name: alarmStats.byLevel,
        type: 'pie',
        radius: ['40%', '65%'],
        data: stats.by_level
          .map((l, i) => ({ name: l.label, value: l.count, itemStyle: { color: LEVEL_COLORS[i] } }))
          .filter((l) => l.value > 0),
      },
    ],
  };
}

/** Alarms per project, as horizontal bars in the brand colour (most first, at the top). */
export function byProjectOption(stats: AlarmStatistics, primary: string): EChartsCoreOption {
  const rows = [...stats.by_project].reverse();
  return {
    grid: { left: 100, right: 24, top: 16, bottom: 24 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: rows.map((p) => p.project_name), axisLabel: { width: 90, overflow: 'truncate' } },
    series: [{ name: alarmStats.count, type: 'bar', barMaxWidth: 24, data: rows.map((p) => p.count), itemStyle: { color: primary } }],
  };
}
