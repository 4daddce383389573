import type { ListColumn } from '@/components/ListTable';
import type { EnergyReportRow } from '@/api/schema';
import type { Period } from '@/constants/periods';
import { energy, reports } from '@/locales/zh-CN';
import { EMPTY } from '@/utils/format';
import { formatNumber } from '../eng/chartOption';
import { reading, RowMarks } from '../eng/columns';
import styles from '../eng/eng.module.css';
import type { ReportGroup } from './reportQuery';

interface Options {
  group: ReportGroup;
  /** The periods' names as the answer gives them (尖 … 深谷). */
  periods: string[];
  /** The periods that used anything: one kWh column each. */
  used: Period[];
  /** On a narrow screen no column is pinned, so the table scrolls as a whole. */
  mobile: boolean;
}

const numeric = { align: 'right', className: styles.numeric } as const;

/** 名称, then (devices only) 建筑 and the readings, each used period's kWh, the totals and the marks. */
export function reportColumns({ group, periods, used, mobile }: Options): ListColumn<EnergyReportRow>[] {
  const devices = group === 'device';
  const columns: ListColumn<EnergyReportRow>[] = [
    { title: energy.name, dataIndex: 'name', key: 'name', width: 170, ellipsis: true, keep: true, fixed: mobile ? undefined : 'left' },
  ];
  if (devices) {
    columns.push(
      { title: energy.building, dataIndex: 'building_name', key: 'building', width: 100, ellipsis: true, rank: 20, render: (v: string | null) => v ?? EMPTY },
      { title: energy.startReading, dataIndex: 'start_reading', key: 'start', width: 130, rank: 21, ...numeric, render: reading },
      { title: energy.endReading, dataIndex: 'end_reading', key: 'end', width: 130, rank: 22, ...numeric, render: reading },
    );
  }
  columns.push(
    ...used.map((period) => ({
      title: reports.periodKwh(periods[period] ?? ''),
      key: `period-${period}`,
      width: 100,
      ...numeric,
      render: (_: unknown, row: EnergyReportRow) => formatNumber(row.kwh[period] ?? 0),
    })),
    {
      title: energy.consumption,
      dataIndex: 'total_kwh',
      key: 'kwh',
      width: 120,
      keep: true,
      ...numeric,
      sorter: (a, b) => a.total_kwh - b.total_kwh,
      render: (v: number) => formatNumber(v),
    },
    {
      title: energy.cost,
      dataIndex: 'total_cost',
      key: 'cost',
      width: 110,
      keep: 'wide',
      ...numeric,
      sorter: (a, b) => a.total_cost - b.total_cost,
      render: (v: number) => formatNumber(v),
    },
    { title: energy.marks, key: 'marks', width: 180, rank: 23, render: (_, row) => <RowMarks row={row} /> },
  );
  return columns;
}
