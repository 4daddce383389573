import { useState, type ReactNode } from 'react';
import { Spin, Tooltip } from 'antd';
import { useGroup, useTask } from '@/api/control/queries';
import type { DeviceBrief } from '@/api/schema';
import { control } from '@/locales/zh-CN';

/** The devices of a group or task, read when the tooltip first opens (lists carry only their number). */
export function MemberNames({ kind, sysno, children }: { kind: 'group' | 'task'; sysno: number; children: ReactNode }) {
  const [asked, setAsked] = useState(false);
  const group = useGroup(asked && kind === 'group' ? sysno : null);
  const task = useTask(asked && kind === 'task' ? sysno : null);
  const devices: DeviceBrief[] | undefined = (kind === 'group' ? group.data : task.data)?.devices;
  const title = devices ? devices.map((d) => `${d.name}（${d.gateway_name}）`).join('、') || control.noDevices : <Spin size="small" />;
  return (
    <Tooltip title={title} onOpenChange={(open) => open && setAsked(true)}>
      {children}
    </Tooltip>
  );
}
