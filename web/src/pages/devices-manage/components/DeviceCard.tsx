import { Card, Space, Typography } from 'antd';
import type { DeviceRead } from '@/api/schema';
import { monitoring } from '@/locales/zh-CN';
import { formatAgo, formatPhases, formatPower, formatValue, isOnline } from '@/utils/format';
import { OnlineTag, SwitchTag } from './StateTags';
import styles from '../devices.module.css';
import { SwitchButton } from '@/components/control/SwitchButton';

interface Props {
  device: DeviceRead;
  onOpen: (device: DeviceRead) => void;
}

/** One breaker: its state and live values; a click opens the detail drawer. */
export function DeviceCard({ device, onOpen }: Props) {
  const online = isOnline(device.online);
  const rows: [string, string][] = [
    [monitoring.voltage, formatPhases(device, 'voltage')],
    [monitoring.current, formatPhases(device, 'current')],
    [monitoring.power, formatPower(device.active_power)],
    [monitoring.energy, formatValue(device.energy, 'kWh', 2)],
    [monitoring.leakage, formatValue(device.leakage_current, 'mA', 1)],
    [monitoring.temperature, formatValue(device.temperature, '°C', 1)],
  ];
  return (
    <Card
      size="small"
      hoverable
      className={`${styles.card} ${online ? '' : styles.cardOffline}`}
      onClick={() => onOpen(device)}
      data-testid="device-card"
      data-device={device.sysno}
    >
      <div className={styles.cardHead}>
        <span className={styles.cardName} title={device.name}>
          {device.name}
        </span>
        <Space size={4}>
          <OnlineTag online={device.online} />
          <SwitchTag state={device.switch_state} />
        </Space>
      </div>
      <Typography.Text type="secondary" className={styles.cardSub} title={`${device.gateway_name} · ${device.device_id}`}>
        {device.gateway_name} · #{device.device_id} · {device.phases === 3 ? monitoring.threePhase : monitoring.singlePhase}
      </Typography.Text>
      <dl className={styles.values}>
        {rows.map(([label, value]) => (
          <div key={label} style={{ display: 'contents' }}>
            <dt>{label}</dt>
            <dd title={value} data-testid={`value-${label}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <SwitchButton device={device} />
      <Typography.Text type="secondary" className={styles.cardFoot}>
        {monitoring.lastReport}：{formatAgo(device.last_report_time)}
      </Typography.Text>
    </Card>
  );
}
