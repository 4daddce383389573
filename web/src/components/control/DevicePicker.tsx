import { useMemo } from 'react';
import { Select } from 'antd';
import { useControllableDevices } from '@/api/control/queries';
import type { DeviceBrief } from '@/api/schema';
import { timedTask } from '@/locales/zh-CN';

interface Props {
  value?: number[];
  onChange?: (value: number[]) => void;
  /** Devices already chosen, shown by name before the list has loaded. */
  known?: DeviceBrief[];
}

/** Options grouped by project and gateway, so one gateway's breakers sit together. */
export function deviceOptions(devices: DeviceBrief[]) {
  const groups = new Map<string, { label: string; options: { value: number; label: string; search: string }[] }>();
  for (const d of devices) {
    const key = `${d.project_sysno}-${d.gateway_sysno}`;
    if (!groups.has(key)) groups.set(key, { label: `${d.project_name} · ${d.gateway_name}（${d.gateway_sn}）`, options: [] });
    groups.get(key)?.options.push({
      value: d.sysno,
      label: `${d.name}（${d.gateway_name} #${d.device_id}）`,
      search: `${d.name} ${d.device_id} ${d.gateway_name} ${d.gateway_sn} ${d.project_name}`.toLowerCase(),
    });
  }
  return [...groups.values()];
}

/** Choose devices the customer may switch, across gateways and projects (a form control). */
export function DevicePicker({ value, onChange, known = [] }: Props) {
  const devices = useControllableDevices('');
  const options = useMemo(() => {
    const all = new Map<number, DeviceBrief>(known.map((d) => [d.sysno, d]));
    for (const d of devices.data ?? []) all.set(d.sysno, d);
    return deviceOptions([...all.values()]);
  }, [devices.data, known]);
  return (
    <Select<number[]>
      mode="multiple"
      allowClear
      value={value}
      onChange={onChange}
      loading={devices.isPending}
      options={options}
      placeholder={timedTask.devicesPlaceholder}
      maxTagCount="responsive"
      showSearch={{
        filterOption: (input, option) =>
          String((option as { search?: string } | undefined)?.search ?? '').includes(input.trim().toLowerCase()),
      }}
      data-testid="device-picker"
    />
  );
}
