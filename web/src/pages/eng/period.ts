import type { Dayjs } from 'dayjs';
import type { EnergyScope } from '@/api/schema';

export type View = EnergyScope['view'];
export type Resolution = EnergyScope['resolution'];

/** The period the screen shows: a day, month or year holding `date`, or the days from `date` to `end`. */
export interface PeriodChoice {
  view: View;
  date: Dayjs;
  end: Dayjs;
  resolution: Resolution;
}

/** The server's limit on a custom range. */
export const MAX_RANGE_DAYS = 366;

const DAY = 'YYYY-MM-DD';

/** The period as the API's `view`, `date`, `end_date` and `resolution`. */
export function periodFields(choice: PeriodChoice): Pick<EnergyScope, 'view' | 'date' | 'end_date' | 'resolution'> {
  const { view, date, end, resolution } = choice;
  if (view === 'range') return { view, date: date.format(DAY), end_date: end.format(DAY), resolution };
  const start = view === 'month' ? date.startOf('month') : view === 'year' ? date.startOf('year') : date;
  return { view, date: start.format(DAY), end_date: null, resolution };
}

/** The day whose quarter-hours a device's detail opens on: the day shown, else the period's last day up to today. */
export function detailDay(choice: PeriodChoice, today: Dayjs): string {
  const last =
    choice.view === 'day'
      ? choice.date
      : choice.view === 'range'
        ? choice.end
        : choice.date.endOf(choice.view === 'month' ? 'month' : 'year');
  return (last.isAfter(today, 'day') ? today : last).format(DAY);
}

/** The period after choosing another view: a custom range opens on the week up to the day shown. */
export function withView(choice: PeriodChoice, view: View): PeriodChoice {
  if (view === 'range' && choice.view !== 'range') return { ...choice, view, date: choice.date.subtract(6, 'day'), end: choice.date };
  if (view !== 'range' && choice.view === 'range') return { ...choice, view, date: choice.end };
  return { ...choice, view };
}

/** A range the server accepts: in order, at most 366 days. */
export function rangeProblem(start: Dayjs, end: Dayjs): 'order' | 'length' | null {
  if (end.isBefore(start, 'day')) return 'order';
  if (end.diff(start, 'day') + 1 > MAX_RANGE_DAYS) return 'length';
  return null;
}
