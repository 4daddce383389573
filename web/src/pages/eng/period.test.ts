import dayjs from 'dayjs';
import { detailDay, periodFields, rangeProblem, withView, type PeriodChoice } from './period';

const choice = (view: PeriodChoice['view'], date: string, end = date): PeriodChoice => ({
  view,
  date: dayjs(date),
  end: dayjs(end),
  resolution: 'hour',
});

describe('the period of 能耗统计', () => {
  it('sends the first day of a month or year, and both ends of a range', () => {
    expect(periodFields(choice('day', '2026-05-14'))).toEqual({ view: 'day', date: '2026-05-14', end_date: null, resolution: 'hour' });
    expect(periodFields(choice('month', '2026-05-14')).date).toBe('2026-05-01');
    expect(periodFields(choice('year', '2026-05-14')).date).toBe('2026-01-01');
    expect(periodFields(choice('range', '2026-04-01', '2026-05-14'))).toMatchObject({ date: '2026-04-01', end_date: '2026-05-14' });
  });

  it('opens a device day on the day shown, or the last day of the period but never after today', () => {
    const today = dayjs('2026-05-14');
    expect(detailDay(choice('day', '2026-05-10'), today)).toBe('2026-05-10');
    expect(detailDay(choice('month', '2026-04-03'), today)).toBe('2026-04-30');
    expect(detailDay(choice('month', '2026-05-03'), today)).toBe('2026-05-14');
    expect(detailDay(choice('year', '2025-02-03'), today)).toBe('2025-12-31');
    expect(detailDay(choice('range', '2026-05-01', '2026-05-09'), today)).toBe('2026-05-09');
  });

  it('refuses ranges the server would refuse', () => {
    expect(rangeProblem(dayjs('2026-05-14'), dayjs('2026-05-13'))).toBe('order');
    expect(rangeProblem(dayjs('2025-05-13'), dayjs('2026-05-14'))).toBe('length');
    expect(rangeProblem(dayjs('2025-05-14'), dayjs('2026-05-14'))).toBeNull();
  });

  it('opens a custom range on the week up to the day shown, and goes back to the range\'s last day', () => {
    const range = withView(choice('day', '2026-05-14'), 'range');
    expect(periodFields(range)).toMatchObject({ view: 'range', date: '2026-05-08', end_date: '2026-05-14' });
    expect(periodFields(withView(range, 'month'))).toMatchObject({ view: 'month', date: '2026-05-01' });
    expect(withView(choice('day', '2026-05-14'), 'year').date.format('YYYY-MM-DD')).toBe('2026-05-14');
  });
});
