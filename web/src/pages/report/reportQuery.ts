import type { AlarmReportQuery, AvailabilityReportQuery, ControlReportQuery, EnergyReportQuery, PeriodSums } from '@/api/schema';
import { serverNow } from '@/utils/format';
import { PERIODS, type Period } from '@/constants/periods';
import { periodFields, type PeriodChoice, type View } from '../eng/period';

/** What a row of the report is: a device, a building or the project. */
export type ReportGroup = EnergyReportQuery['group'];

/** The rows of the export's 明细 sheet: hours, days or months. */
export type ReportDetail = NonNullable<EnergyReportQuery['detail']>;

/** What the filters hold: a project (none while the projects load), maybe a building, the rows' kind and the period. */
export interface ReportFilter {
  project: number | null;
  building: number | null;
  group: ReportGroup;
  period: PeriodChoice;
}

/** The filters every tab starts with: the first project (once known), all buildings, by device, today. */
export function initialFilter(): ReportFilter {
  const today = serverNow().startOf('day');
  return { project: null, building: null, group: 'device', period: { view: 'day', date: today, end: today, resolution: 'hour' } };
}

/** The body of the alarm, availability and control reports (the same fields for the three). */
export type EventQuery = AlarmReportQuery & AvailabilityReportQuery & ControlReportQuery;

/** An event report's body: the project, building and period of the filters (no `group`), or null while no project is chosen. */
export function eventQuery({ project, building, period }: ReportFilter): EventQuery | null {
  if (project === null) return null;
  const { view, date, end_date } = periodFields(period);
  return { project_sysno: project, building_sysno: building, view, date, end_date, format: 'xlsx' };
}

/** The report's body, or null while no project is chosen. */
export function reportQuery({ project, building, group, period }: ReportFilter): EnergyReportQuery | null {
  if (project === null) return null;
  return { project_sysno: project, building_sysno: building, ...periodFields(period), group, format: 'xlsx' };
}

/** The export's 明细 by default: hours of a day, days of a month or range, months of a year (as the server defaults). */
export function defaultDetail(view: View): ReportDetail {
  return view === 'day' ? 'hour' : view === 'year' ? 'month' : 'day';
}

/** The tariff periods that used anything, in order: each gets a column (none: only the total). */
export function periodsInUse(total: PeriodSums): Period[] {
  return PERIODS.filter((p) => total.kwh[p] > 0);
}
