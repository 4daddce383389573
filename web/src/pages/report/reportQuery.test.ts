import dayjs from 'dayjs';
import { defaultDetail, eventQuery, periodsInUse, reportQuery } from './reportQuery';

describe('能耗报表 query', () => {
  const day = dayjs('2026-11-25');

  it('asks for nothing until a project is chosen, and for the month from its first day', () => {
    const period = { view: 'month' as const, date: day, end: day, resolution: 'hour' as const };
    expect(reportQuery({ project: null, building: null, group: 'device', period })).toBeNull();
    expect(reportQuery({ project: 1, building: 3, group: 'building', period })).toEqual({
      project_sysno: 1,
      building_sysno: 3,
      view: 'month',
      date: '2026-11-01',
      end_date: null,
      resolution: 'hour',
      group: 'building',
      format: 'xlsx',
    });
  });

  it('asks the alarm, availability and control reports for the same project, building and period, without a row kind', () => {
    const period = { view: 'range' as const, date: day.subtract(6, 'day'), end: day, resolution: 'hour' as const };
    expect(eventQuery({ project: null, building: null, group: 'device', period })).toBeNull();
    expect(eventQuery({ project: 1, building: null, group: 'building', period })).toEqual({
      project_sysno: 1,
      building_sysno: null,
      view: 'range',
      date: '2026-11-19',
      end_date: '2026-11-25',
      format: 'xlsx',
    });
  });

  it('details a day by hour, a month or range by day and a year by month', () => {
    expect(defaultDetail('day')).toBe('hour');
    expect(defaultDetail('month')).toBe('day');
    expect(defaultDetail('range')).toBe('day');
    expect(defaultDetail('year')).toBe('month');
  });

  it('gives a column to each period that used anything', () => {
    expect(periodsInUse({ kwh: [0, 4, 8.75, 0, 0.01], cost: [0, 0, 0, 0, 0] })).toEqual([1, 2, 4]);
    expect(periodsInUse({ kwh: [0, 0, 0, 0, 0], cost: [0, 0, 0, 0, 0] })).toEqual([]);
  });
});
