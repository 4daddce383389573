import type { DeviceTrend } from '@/api/schema';
import { axisLabels, hasReadings, seriesOf, trendOption } from './trend';

function trend(series: [string, (number | null)[]][]): DeviceTrend {
  return {
    sysno: 1,
    name: '总进线',
    hours: 24,
    start_time: '2026-11-20 13:00:00',
    end_time: '2026-11-21 13:00:00',
    bucket_seconds: 300,
    times: ['2026-11-21 12:50:00', '2026-11-21 12:55:00'],
    series: series.map(([key, data]) => ({ key, label: key, unit: '', data })),
  };
}

describe('device trend', () => {
  it('shows the phases of a three-phase device and drops its empty total', () => {
    const t = trend([
      ['voltage', [null, null]],
      ['voltage_a', [220, 221]],
      ['voltage_b', [219, null]],
      ['current', [null, null]],
    ]);
    expect(seriesOf(t, 'voltage').map((s) => s.key)).toEqual(['voltage_a', 'voltage_b']);
    expect(seriesOf(t, 'current').map((s) => s.key)).toEqual(['current']);
    expect(seriesOf(t, 'power')).toEqual([]);
  });

  it('knows whether anything was reported', () => {
    expect(hasReadings(trend([['voltage', [null, null]]]))).toBe(false);
    expect(hasReadings(trend([['temperature', [null, 24.2]]]))).toBe(true);
  });

  it('labels the time axis with hours, and the day when the window spans two', () => {
    expect(axisLabels(['2026-11-21 12:50:00', '2026-11-21 12:55:00'])).toEqual(['12:50', '12:55']);
    expect(axisLabels(['2026-11-20 23:55:00', '2026-11-21 00:00:00'])).toEqual(['11-20 23:55', '11-21 00:00']);
  });

  it('draws one line a series, in the first series\' unit, marking points only while they are few', () => {
    const series = [{ key: 'voltage_a', label: 'A相电压', unit: 'V', data: [220, null, 221] }];
    const option = trendOption(['12:50', '12:55', '13:00'], series, 'voltage', '#409EFF');
    expect(option).toMatchObject({
      // A volt of difference is not drawn as a cliff: the axis spans 190–250 V.
      yAxis: { name: 'V', min: 190, max: 250 },
      legend: { data: ['A相电压'] },
      // Phase A in the switchgear's yellow.
      series: [{ name: 'A相电压', type: 'line', color: '#E6A23C', showSymbol: true, data: [220, null, 221] }],
    });
    const power = trendOption(['12:50'], [{ key: 'active_power', label: '有功功率', unit: 'W', data: [950] }], 'power', '#13A085');
    // One quantity of its own in the brand's colour, on an axis from 0.
    expect(power).toMatchObject({ yAxis: { min: 0, max: 1500 }, series: [{ color: '#13A085' }] });
    const dense = trendOption([], [{ ...series[0], data: Array.from({ length: 40 }, () => 220) }], 'voltage', '#409EFF');
    expect(dense).toMatchObject({ series: [{ showSymbol: false }] });
  });
});
