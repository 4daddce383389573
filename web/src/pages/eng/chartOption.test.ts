import type { ChartPoint, Comparison, EnergyChart, QuarterRead } from '@/api/schema';
import { PERIOD_COLORS } from '@/constants/periods';
import {
  dayQuarters,
  energyChartOption,
  formatChange,
  formatIn,
  HATCH,
  hoveredIndex,
  periodShares,
  quarterChartOption,
  quarterLabel,
  tooltipHtml,
  usedPeriods,
} from './chartOption';

function point(label: string, kwh: number[], cost: number[], flags: Partial<Pick<ChartPoint, 'estimated' | 'reset' | 'implausible'>> = {}): ChartPoint {
  return {
    label,
    start: `2026-05-14 ${label}:00`,
    kwh,
    cost,
    total_kwh: kwh.reduce((a, b) => a + b, 0),
    total_cost: cost.reduce((a, b) => a + b, 0),
    estimated: false,
    reset: false,
    implausible: false,
    ...flags,
  };
}

const COMPARISON: Comparison = { label: '同比', start: '', end: '', kwh: 0, cost: 0, complete: true, kwh_change: null, cost_change: null };

function chart(points: ChartPoint[]): EnergyChart {
  const zero = [0, 0, 0, 0, 0];
  return {
    view: 'day',
    start: '2026-05-14 00:00:00',
    end: '2026-05-15 00:00:00',
    partial: false,
    periods: ['尖', '峰', '平', '谷', '深谷'],
    priced: true,
    points,
    total_kwh: 0,
    total_cost: 0,
    total: { kwh: zero, cost: zero },
    yoy: COMPARISON,
    mom: COMPARISON,
  };
}

interface BarSeries {
  name: string;
  type: string;
  stack?: string;
  itemStyle: { color: string };
  data: ({ value: number; itemStyle?: { color?: string; decal?: unknown } } | number | null)[];
}

function seriesOf(option: ReturnType<typeof energyChartOption>): BarSeries[] {
  return option.series as BarSeries[];
}

describe('the energy chart option', () => {
  const points = [
    point('00:00', [0, 0, 1, 2, 0], [0, 0, 0.67, 0.54, 0]),
    point('01:00', [0, 3, 1, 0, 0], [0, 3.42, 0.67, 0, 0], { estimated: true }),
    point('02:00', [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], { reset: true }),
  ];

  it('stacks one bar series per period used, in the period colours', () => {
    const bars = seriesOf(energyChartOption(chart(points), 'kwh', { compact: false })).filter((s) => s.type === 'bar');
    expect(bars.map((s) => s.name)).toEqual(['峰', '平', '谷']);
    expect(bars.every((s) => s.stack === 'total')).toBe(true);
    expect(bars[0].itemStyle.color).toBe(PERIOD_COLORS[1]);
    expect(bars[2].data.map((d) => (typeof d === 'object' && d ? d.value : d))).toEqual([2, 0, 0]);
  });

  it('draws cost in the ¥ unit', () => {
    const option = energyChartOption(chart(points), 'cost', { compact: false });
    const peak = seriesOf(option).find((s) => s.name === '峰');
    expect(peak?.data.map((d) => (typeof d === 'object' && d ? d.value : d))).toEqual([0, 3.42, 0]);
  });

  it('hatches estimated bars and marks estimated and reset points with a legend entry each', () => {
    const series = seriesOf(energyChartOption(chart(points), 'kwh', { compact: false }));
    const peak = series.find((s) => s.name === '峰');
    const estimatedBar = peak?.data[1];
    expect(typeof estimatedBar === 'object' && estimatedBar?.itemStyle?.decal).toEqual(HATCH);
    expect(typeof peak?.data[0] === 'object' && peak.data[0]?.itemStyle).toBeUndefined();
    const markers = series.filter((s) => s.type === 'scatter');
    expect(markers.map((s) => s.name)).toEqual(['含估算', '含计数器复位']);
    expect(markers[0].data).toEqual([null, 4, null]);
    expect(markers[1].data).toEqual([null, null, 0]);
  });

  it('shows 平 alone when nothing was used, and adds a slider only when the bars are too many for the width', () => {
    const empty = Array.from({ length: 96 }, (_, i) => point(quarterLabel(i), [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]));
    expect(usedPeriods(empty, 'kwh')).toEqual([2]);
    expect(energyChartOption(chart(empty), 'kwh', { compact: false }).dataZoom).toBeUndefined();
    const zoom = energyChartOption(chart(empty), 'kwh', { compact: true }).dataZoom;
    expect(zoom).toEqual([expect.objectContaining({ startValue: 0, endValue: 23 })]);
  });

  it('writes the tooltip of a bar with its periods, total and flags', () => {
    const html = tooltipHtml(points[1], 'kwh');
    expect(html).toContain('峰：3.00 kWh');
    expect(html).toContain('合计：<b>4.00 kWh</b>');
    expect(html).toContain('含估算');
    expect(html).not.toContain('谷：');
    expect(tooltipHtml(points[0], 'cost')).toContain('谷：¥0.54');
  });

  it('finds the hovered point in what ECharts passes the formatter', () => {
    expect(hoveredIndex([{ dataIndex: 3 }])).toBe(3);
    expect(hoveredIndex({ dataIndex: 0 })).toBe(0);
    expect(hoveredIndex('nonsense')).toBe(-1);
  });
});

describe('energy figures', () => {
  it('splits a total into period shares, leaving out unused periods', () => {
    const shares = periodShares({ kwh: [0, 30, 50, 20, 0], cost: [0, 0, 0, 0, 0] }, 'kwh');
    expect(shares.map((s) => [s.period, Math.round(s.share)])).toEqual([
      [1, 30],
      [2, 50],
      [3, 20],
    ]);
    expect(periodShares({ kwh: [0, 0, 0, 0, 0], cost: [0, 0, 0, 0, 0] }, 'cost')).toEqual([]);
  });

  it('formats values and changes', () => {
    expect(formatIn('kwh', 1234.5)).toBe('1,234.50 kWh');
    expect(formatIn('cost', 3.456)).toBe('¥3.46');
    expect(formatChange(5)).toBe('+5.00%');
    expect(formatChange(-12.345)).toBe('-12.35%');
    expect(formatChange(null)).toBe('—');
  });
});

describe('a device day of quarter-hours', () => {
  const rows: QuarterRead[] = [
    { start: '2026-05-14 00:15:00', period: 3, kwh: 0.5, cost: 0.13, estimated: false, reset: false, implausible: false },
    { start: '2026-05-14 23:45:00', period: 2, kwh: 0.25, cost: 0.17, estimated: true, reset: false, implausible: false },
  ];

  it('places each quarter at its time of day and leaves the rest empty', () => {
    const day = dayQuarters(rows);
    expect(day).toHaveLength(96);
    expect(day[1]?.kwh).toBe(0.5);
    expect(day[95]?.period).toBe(2);
    expect(day.filter(Boolean)).toHaveLength(2);
    expect(quarterLabel(95)).toBe('23:45');
  });

  it('colours each bar by its period and hatches estimated ones', () => {
    const option = quarterChartOption(rows, { compact: false });
    const data = (option.series as BarSeries[])[0].data;
    const style = (i: number) => {
      const item = data[i];
      return typeof item === 'object' && item ? item.itemStyle : undefined;
    };
    expect(style(1)?.color).toBe(PERIOD_COLORS[3]);
    expect(style(95)?.decal).toEqual(HATCH);
    expect(style(1)?.decal).toBeUndefined();
  });
});
