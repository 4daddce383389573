import { Button, Space, Tag, Tooltip } from 'antd';
import type { ListColumn } from '@/components/ListTable';
import type { BuildingLoss, DeviceEnergyRow } from '@/api/schema';
import { energy } from '@/locales/zh-CN';
import { EMPTY } from '@/utils/format';
import { formatNumber } from './chartOption';
import styles from './eng.module.css';

/** A meter reading in kWh, to the Wh; a dash where there is none. */
export const reading = (value: number | null) => (value === null ? EMPTY : formatNumber(value, 3));

/** The marks of a device row: 总进线, and the flags of its intervals. */
export function RowMarks({ row }: { row: Pick<DeviceEnergyRow, 'incoming_main' | 'estimated' | 'reset' | 'implausible'> }) {
  return (
    <span className={styles.flags}>
      {row.incoming_main && <Tag color="blue">{energy.incomingMain}</Tag>}
      {row.estimated && (
        <Tooltip title={energy.estimatedHint}>
          <Tag color="gold">{energy.estimated}</Tag>
        </Tooltip>
      )}
      {row.reset && (
        <Tooltip title={energy.resetHint}>
          <Tag color="red">{energy.reset}</Tag>
        </Tooltip>
      )}
      {row.implausible && (
        <Tooltip title={energy.implausibleHint}>
          <Tag color="purple">{energy.implausible}</Tag>
        </Tooltip>
      )}
    </span>
  );
}

interface Actions {
  /** On a narrow screen no column is pinned, so the table scrolls as a whole. */
  mobile: boolean;
  onQuarters: (row: DeviceEnergyRow) => void;
  onMetering: (row: DeviceEnergyRow) => void;
  /** Devices removed since: their use stays in the figures, but they have no day or settings to open. */
  present: (row: DeviceEnergyRow) => boolean;
}

export function deviceColumns({ mobile, onQuarters, onMetering, present }: Actions): ListColumn<DeviceEnergyRow>[] {
  return [
    {
      title: energy.device,
      dataIndex: 'name',
      key: 'name',
      width: 170,
      keep: true,
      fixed: mobile ? undefined : 'left',
      // The marks sit under the name, where they are seen with it, not in a column scrolled away.
      render: (name: string, row) => (
        <>
          <div className={styles.deviceName}>{name}</div>
          <RowMarks row={row} />
        </>
      ),
    },
    { title: energy.building, dataIndex: 'building_name', key: 'building', width: 90, ellipsis: true, rank: 5, render: (v: string | null) => v ?? EMPTY },
    { title: energy.startReading, dataIndex: 'start_reading', key: 'start', width: 120, rank: 6, align: 'right', className: styles.numeric, render: reading },
    { title: energy.endReading, dataIndex: 'end_reading', key: 'end', width: 120, rank: 4, align: 'right', className: styles.numeric, render: reading },
    {
      title: energy.consumption,
      dataIndex: 'kwh',
      key: 'kwh',
      width: 110,
      keep: true,
      align: 'right',
      className: styles.numeric,
      sorter: (a, b) => a.kwh - b.kwh,
      render: (v: number) => formatNumber(v),
    },
    {
      title: energy.cost,
      dataIndex: 'cost',
      key: 'cost',
      width: 100,
      keep: 'wide',
      align: 'right',
      className: styles.numeric,
      sorter: (a, b) => a.cost - b.cost,
      render: (v: number) => formatNumber(v),
    },
    {
      title: energy.actions,
      key: 'actions',
      width: 150,
      keep: 'wide',
      fixed: mobile ? undefined : 'right',
      render: (_, row) =>
        present(row) && (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => onQuarters(row)} data-testid={`quarters-${row.device_sysno}`}>
              {energy.quarters}
            </Button>
            <Button type="link" size="small" onClick={() => onMetering(row)} data-testid={`metering-${row.device_sysno}`}>
              {energy.metering}
            </Button>
          </Space>
        ),
    },
  ];
}

export const lossColumns: ListColumn<BuildingLoss>[] = [
  { title: energy.building, dataIndex: 'building_name', key: 'building', width: 120, ellipsis: true, keep: true },
  { title: energy.mainKwh, dataIndex: 'main_kwh', key: 'main', width: 120, align: 'right', className: styles.numeric, render: (v: number) => formatNumber(v) },
  { title: energy.branchKwh, dataIndex: 'branch_kwh', key: 'branch', width: 120, align: 'right', className: styles.numeric, render: (v: number) => formatNumber(v) },
  { title: energy.lossKwh, dataIndex: 'loss_kwh', key: 'loss', width: 130, keep: true, align: 'right', className: styles.numeric, render: (v: number) => formatNumber(v) },
  {
    title: energy.lossRatio,
    dataIndex: 'loss_ratio',
    key: 'ratio',
    width: 90,
    align: 'right',
    className: styles.numeric,
    render: (v: number | null) => (v === null ? EMPTY : `${v.toFixed(2)}%`),
  },
];
