import type { EChartsCoreOption } from 'echarts/core';
import type { LoadStatistics, PowerSeriesRead, WaveformRead } from '@/api/schema';
import { loadIdent } from '@/locales/zh-CN';

const GRID = { left: 56, right: 24, top: 36, bottom: 40 };

/** The active power around the step, the step at 0 s. */
export function powerStepOption(series: PowerSeriesRead, colour: string): EChartsCoreOption {
  return {
    grid: GRID,
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'value', name: loadIdent.seconds, nameLocation: 'middle', nameGap: 26, min: series.seconds[0], max: series.seconds[series.seconds.length - 1] },
    yAxis: { type: 'value', name: loadIdent.activePower },
    series: [
      {
        type: 'line',
        showSymbol: false,
        step: 'end',
        connectNulls: false,
        lineStyle: { color: colour, width: 2 },
        areaStyle: { color: colour, opacity: 0.12 },
        data: series.seconds.map((s, i) => [s, series.active_power[i]]),
        markLine: { silent: true, symbol: 'none', data: [{ xAxis: 0 }], lineStyle: { color: '#F56C6C', type: 'dashed' } },
      },
    ],
  };
}

/** Current and voltage over a few mains cycles, on two axes. */
export function waveformOption(wave: WaveformRead, colour: string): EChartsCoreOption {
  return {
    grid: { ...GRID, right: 56 },
    tooltip: { trigger: 'axis' },
    legend: { top: 0, data: [loadIdent.current, loadIdent.voltage] },
    xAxis: { type: 'value', name: loadIdent.ms, nameLocation: 'middle', nameGap: 26, max: Math.ceil(wave.ms[wave.ms.length - 1] ?? 0) },
    yAxis: [
      { type: 'value', name: loadIdent.current, splitLine: { show: false } },
      { type: 'value', name: loadIdent.voltage },
    ],
    series: [
      { name: loadIdent.current, type: 'line', showSymbol: false, lineStyle: { color: colour, width: 1.5 }, itemStyle: { color: colour }, data: wave.ms.map((t, i) => [t, wave.current_a[i]]) },
      { name: loadIdent.voltage, type: 'line', yAxisIndex: 1, showSymbol: false, lineStyle: { color: '#E6A23C', width: 1.2 }, itemStyle: { color: '#E6A23C' }, data: wave.ms.map((t, i) => [t, wave.voltage_v[i]]) },
    ],
  };
}

/** The V-I trajectory: current against voltage over the cycles (its shape tells the circuit). */
export function viOption(wave: WaveformRead, colour: string): EChartsCoreOption {
  return {
    grid: GRID,
    tooltip: { trigger: 'item' },
    xAxis: { type: 'value', name: loadIdent.voltage, nameLocation: 'middle', nameGap: 26 },
    yAxis: { type: 'value', name: loadIdent.current },
    series: [
      { type: 'line', showSymbol: false, smooth: false, lineStyle: { color: colour, width: 1.2 }, data: wave.voltage_v.map((v, i) => [v, wave.current_a[i]]) },
    ],
  };
}

export function byBuildingOption(data: LoadStatistics, colour: string): EChartsCoreOption {
  const rows = [...data.by_building].reverse();
  return {
    grid: { left: 100, right: 24, top: 30, bottom: 24 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { top: 0, data: [loadIdent.stats.violations, loadIdent.stats.trips] },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: rows.map((r) => r.building_name) },
    series: [
      { name: loadIdent.stats.violations, type: 'bar', barMaxWidth: 18, itemStyle: { color: colour }, data: rows.map((r) => r.count) },
      { name: loadIdent.stats.trips, type: 'bar', barMaxWidth: 18, itemStyle: { color: '#F56C6C' }, data: rows.map((r) => r.tripped) },
    ],
  };
}

export function byApplianceOption(data: LoadStatistics): EChartsCoreOption {
  return {
    tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
    legend: { bottom: 0, type: 'scroll' },
    series: [
      {
        type: 'pie',
        radius: ['40%', '68%'],
        center: ['50%', '45%'],
        label: { formatter: '{b}\n{c}' },
        data: data.by_appliance.map((a) => ({ name: a.appliance, value: a.count })),
      },
    ],
  };
}

export function byDayOption(data: LoadStatistics, colour: string): EChartsCoreOption {
  return {
    grid: { left: 40, right: 16, top: 16, bottom: 30 },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'category', data: data.by_day.map((d) => d.day.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [{ type: 'bar', barMaxWidth: 16, itemStyle: { color: colour }, data: data.by_day.map((d) => d.count) }],
  };
}
