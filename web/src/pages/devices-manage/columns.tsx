import { Button } from 'antd';
import type { ListColumn } from '@/components/ListTable';
import type { DeviceRead } from '@/api/schema';
import { monitoring } from '@/locales/zh-CN';
import { formatAgo, formatPhases, formatPower, formatValue } from '@/utils/format';
import { OnlineTag, SwitchTag } from './components/StateTags';

/** The table view of the device list; the same values as the cards. */
export function deviceColumns(onOpen: (device: DeviceRead) => void): ListColumn<DeviceRead>[] {
  return [
    {
      title: monitoring.deviceName,
      dataIndex: 'name',
      key: 'name',
      fixed: 'left',
      width: 150,
      keep: true,
      ellipsis: true,
      render: (name: string, device) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => onOpen(device)}>
          {name}
        </Button>
      ),
    },
    { title: monitoring.deviceId, dataIndex: 'device_id', key: 'device_id', width: 80, rank: 6 },
    { title: monitoring.gateway, dataIndex: 'gateway_name', key: 'gateway_name', width: 150, ellipsis: true, rank: 9 },
    { title: monitoring.state, dataIndex: 'online', key: 'online', width: 80, keep: true, render: (online: number) => <OnlineTag online={online} /> },
    {
      title: monitoring.switchState,
      dataIndex: 'switch_state',
      key: 'switch_state',
      width: 80,
      keep: 'wide',
      render: (state: DeviceRead['switch_state']) => <SwitchTag state={state} />,
    },
    { title: monitoring.voltage, key: 'voltage', width: 230, rank: 4, render: (_, d) => formatPhases(d, 'voltage') },
    { title: monitoring.current, key: 'current', width: 230, rank: 5, render: (_, d) => formatPhases(d, 'current') },
    { title: monitoring.power, key: 'power', width: 100, keep: 'wide', align: 'right', render: (_, d) => formatPower(d.active_power) },
    { title: monitoring.energy, key: 'energy', width: 120, rank: 3, align: 'right', render: (_, d) => formatValue(d.energy, 'kWh', 2) },
    { title: monitoring.leakage, key: 'leakage', width: 90, rank: 7, align: 'right', render: (_, d) => formatValue(d.leakage_current, 'mA', 1) },
    { title: monitoring.temperature, key: 'temperature', width: 90, rank: 8, align: 'right', render: (_, d) => formatValue(d.temperature, '°C', 1) },
    {
      title: monitoring.lastReport,
      dataIndex: 'last_report_time',
      key: 'last_report_time',
      width: 120,
      rank: 2,
      render: (time: string | null) => <span title={time ?? ''}>{formatAgo(time)}</span>,
    },
  ];
}
