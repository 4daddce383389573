import { Descriptions, Drawer, Space, Tabs } from 'antd';
import type { DeviceRead } from '@/api/schema';
import { useDevice } from '@/api/devices/queries';
import { control, monitoring } from '@/locales/zh-CN';
import { useAppStore } from '@/store/app';
import { EMPTY, formatAgo, formatPhases, formatPower, formatValue } from '@/utils/format';
import { OnlineTag, SwitchTag } from './StateTags';
import { TrendPanel } from './TrendPanel';
import { DeviceSettingsForm } from './DeviceSettingsForm';
import { SwitchButton } from '@/components/control/SwitchButton';

interface Props {
  /** The row the drawer opened from, shown until the device's own query answers. */
  device: DeviceRead | null;
  refetchInterval: number;
  onClose: () => void;
}

function Realtime({ device }: { device: DeviceRead }) {
  return (
    <Descriptions column={1} size="small" bordered data-testid="device-realtime">
      <Descriptions.Item label={monitoring.state}>
        <Space size={4}>
          <OnlineTag online={device.online} />
          <SwitchTag state={device.switch_state} />
          {device.gateway_online === 0 && <span>（{monitoring.gatewayOffline}）</span>}
        </Space>
      </Descriptions.Item>
      <Descriptions.Item label={control.label}>
        <SwitchButton device={device} />
      </Descriptions.Item>
      <Descriptions.Item label={monitoring.voltage}>{formatPhases(device, 'voltage')}</Descriptions.Item>
      <Descriptions.Item label={monitoring.current}>{formatPhases(device, 'current')}</Descriptions.Item>
      <Descriptions.Item label={monitoring.power}>{formatPower(device.active_power)}</Descriptions.Item>
      <Descriptions.Item label={monitoring.powerFactor}>{formatValue(device.power_factor, '', 3)}</Descriptions.Item>
      <Descriptions.Item label={monitoring.frequency}>{formatValue(device.frequency, 'Hz', 2)}</Descriptions.Item>
      <Descriptions.Item label={monitoring.energy}>{formatValue(device.energy, 'kWh', 2)}</Descriptions.Item>
      <Descriptions.Item label={monitoring.leakage}>{formatValue(device.leakage_current, 'mA', 1)}</Descriptions.Item>
      <Descriptions.Item label={monitoring.temperature}>{formatValue(device.temperature, '°C', 1)}</Descriptions.Item>
      <Descriptions.Item label={monitoring.lastReport}>
        {device.last_report_time ? `${device.last_report_time}（${formatAgo(device.last_report_time)}）` : monitoring.never}
      </Descriptions.Item>
      <Descriptions.Item label={monitoring.project}>{device.project_name}</Descriptions.Item>
      <Descriptions.Item label={monitoring.building}>{device.building_name ?? EMPTY}</Descriptions.Item>
      <Descriptions.Item label={monitoring.gateway}>
        {device.gateway_name}（{device.gateway_sn}）
      </Descriptions.Item>
      <Descriptions.Item label={monitoring.deviceId}>{device.device_id}</Descriptions.Item>
      <Descriptions.Item label={monitoring.phases}>
        {device.phases === 3 ? monitoring.threePhase : monitoring.singlePhase}
      </Descriptions.Item>
      <Descriptions.Item label={monitoring.model}>{device.model ?? EMPTY}</Descriptions.Item>
    </Descriptions>
  );
}

/** One device: live values, the last 24 h trend and its settings. */
export function DeviceDrawer({ device, refetchInterval, onClose }: Props) {
  const mobile = useAppStore((s) => s.device === 'mobile');
  const live = useDevice(device?.sysno ?? null, refetchInterval);
  const shown = live.data && live.data.sysno === device?.sysno ? live.data : device;

  return (
    <Drawer
      open={device !== null}
      onClose={onClose}
      size={mobile ? '100%' : 640}
      title={shown ? `${shown.name}（#${shown.device_id}）` : ''}
      destroyOnHidden
      data-testid="device-drawer"
    >
      {shown && (
        <Tabs
          items={[
            { key: 'realtime', label: monitoring.realtime, children: <Realtime device={shown} /> },
            { key: 'trend', label: monitoring.trend, children: <TrendPanel sysno={shown.sysno} /> },
            { key: 'settings', label: monitoring.settings, children: <DeviceSettingsForm device={shown} onDeleted={onClose} /> },
          ]}
        />
      )}
    </Drawer>
  );
}
