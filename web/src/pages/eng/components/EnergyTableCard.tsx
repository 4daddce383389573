import { useState } from 'react';
import { Card, Tooltip, Typography } from 'antd';
import { ListTable } from '@/components/ListTable';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { useProjectDevices } from '@/api/devices/queries';
import { useEnergyTable } from '@/api/energy/queries';
import type { BuildingLoss, DeviceEnergyRow, EnergyScope } from '@/api/schema';
import { energy } from '@/locales/zh-CN';
import { deviceColumns, lossColumns } from '../columns';
import { formatNumber } from '../chartOption';
import { MeteringModal } from './MeteringModal';
import { QuarterModal } from './QuarterModal';

interface Props {
  scope: EnergyScope | null;
  mobile: boolean;
  /** The day a device's quarter-hours open on. */
  detailDay: string;
}

/** 用电明细: each device's start and end reading, use and cost; the buildings' 公摊/损耗; a device's day and settings. */
export function EnergyTableCard({ scope, mobile, detailDay }: Props) {
  const table = useEnergyTable(scope);
  const rows = table.data?.rows ?? [];
  const losses = table.data?.losses ?? [];
  const devices = useProjectDevices(scope ? [scope.project_sysno] : []);
  const known = scope ? devices.get(scope.project_sysno) : undefined;
  const [quartersOf, setQuartersOf] = useState<DeviceEnergyRow | null>(null);
  // The dialog reads the row from the table, so marking the 总进线 shows as soon as the table reloads.
  const [meteringOf, setMeteringOf] = useState<number | null>(null);

  const columns = deviceColumns({
    mobile,
    onQuarters: setQuartersOf,
    onMetering: (row) => setMeteringOf(row.device_sysno),
    present: (row) => known === undefined || known.some((d) => d.sysno === row.device_sysno),
  });

  return (
    <Card size="small" title={energy.tableTitle} data-testid="energy-table-card">
      {losses.length > 0 && (
        <>
          <Typography.Text strong>
            {energy.lossTitle}{' '}
            <Tooltip title={energy.lossHint}>
              <QuestionCircleOutlined />
            </Tooltip>
          </Typography.Text>
          <ListTable<BuildingLoss>
        tableId="energy-losses"
            size="small"
            rowKey="building_sysno"
            dataSource={losses}
            columns={lossColumns}
            pagination={false}
            style={{ margin: '8px 0 16px' }}
            data-testid="energy-losses"
          />
        </>
      )}
      <ListTable<DeviceEnergyRow>
        tableId="energy-devices"
        size="small"
        rowKey="device_sysno"
        dataSource={rows}
        columns={columns}
        loading={table.isFetching}
        pagination={rows.length > 20 ? { pageSize: 20, size: 'small', showSizeChanger: false } : false}
        locale={{ emptyText: energy.tableEmpty }}
        data-testid="energy-table"
        summaryRow={
          rows.length > 0
            ? {
                label: <b>{energy.total}</b>,
                cells: {
                  kwh: <b data-testid="energy-table-total">{formatNumber(table.data?.total_kwh ?? 0)}</b>,
                  cost: <b>{formatNumber(table.data?.total_cost ?? 0)}</b>,
                },
              }
            : null
        }
      />
      <QuarterModal device={quartersOf} day={detailDay} onClose={() => setQuartersOf(null)} />
      <MeteringModal device={rows.find((r) => r.device_sysno === meteringOf) ?? null} onClose={() => setMeteringOf(null)} />
    </Card>
  );
}
