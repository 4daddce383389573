import { Tag } from 'antd';
import type { DeviceRead } from '@/api/schema';
import { isOnline, onlineLabel, switchLabel } from '@/utils/format';

/** 在线/离线 label: 0 is offline, anything else online. */
export function OnlineTag({ online }: { online: number | null | undefined }) {
  return (
    <Tag color={isOnline(online) ? 'success' : 'default'} data-testid="online-tag" style={{ marginInlineEnd: 0 }}>
      {onlineLabel(online)}
    </Tag>
  );
}

const SWITCH_COLOR: Record<string, string> = { '1': 'processing', '0': 'warning' };

export function SwitchTag({ state }: { state: DeviceRead['switch_state'] }) {
  return (
    <Tag color={SWITCH_COLOR[String(state)] ?? 'default'} style={{ marginInlineEnd: 0 }}>
      {switchLabel(state)}
    </Tag>
  );
}
