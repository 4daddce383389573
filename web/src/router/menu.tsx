import type { ReactNode } from 'react';
import type { MenuProps } from 'antd';
import {
  AccountBookOutlined,
  AlertOutlined,
  BarChartOutlined,
  ClockCircleOutlined,
  ClusterOutlined,
  DashboardOutlined,
  FileTextOutlined,
  MonitorOutlined,
  PieChartOutlined,
  SettingOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import type { BrandFlags } from '@/api/schema';
import { routeTitles } from '@/locales/zh-CN';

export interface MenuEntry {
  key: string;
  label: string;
  icon?: ReactNode;
  children?: MenuEntry[];
}

const UM = '/user-manage';
const SETTING = `${UM}/setting`;

/** The sidebar: the data dashboard and the screens the top bar links to. */
export const SIDEBAR_MENU: MenuEntry[] = [
  { key: '/dashboard', label: routeTitles.dashboard, icon: <DashboardOutlined /> },
  { key: `${UM}/devices-manage`, label: routeTitles['devices-manage'], icon: <MonitorOutlined /> },
  { key: `${UM}/alarm-manage`, label: routeTitles['alarm-manage'], icon: <AlertOutlined /> },
  { key: `${UM}/alarm`, label: routeTitles.alarm, icon: <PieChartOutlined /> },
  { key: `${UM}/eng`, label: routeTitles.eng, icon: <BarChartOutlined /> },
  { key: `${UM}/timing-task`, label: routeTitles['timing-task'], icon: <ClockCircleOutlined /> },
  { key: `${UM}/group-control`, label: routeTitles['group-control'], icon: <ClusterOutlined /> },
  { key: `${UM}/load-identify`, label: routeTitles['load-identify'], icon: <ThunderboltOutlined /> },
  { key: `${UM}/report`, label: routeTitles.report, icon: <FileTextOutlined /> },
  { key: `${UM}/electricity`, label: routeTitles.electricity, icon: <AccountBookOutlined /> },
  { key: SETTING, label: routeTitles.setting, icon: <SettingOutlined /> },
];

/** The sidebar for a brand: alarm statistics only where it has alarmDetail, 电费管理 only where it has eletricList. */
export function sidebarMenu(flags: BrandFlags): MenuEntry[] {
  const hidden = new Set<string>();
  if (!flags.alarmDetail) hidden.add(`${UM}/alarm`);
  if (!flags.eletricList) hidden.add(`${UM}/electricity`);
  return SIDEBAR_MENU.filter((entry) => !hidden.has(entry.key));
}

/** The left menu of system management; the SMS screens only where the brand has SmsConfig. */
export function settingMenu(flags: BrandFlags): MenuEntry[] {
  const entries: MenuEntry[] = [
    { key: `${SETTING}/project-list`, label: routeTitles['project-list'] },
    { key: `${SETTING}/gateway-list`, label: routeTitles['gateway-list'] },
    { key: `${SETTING}/share-list`, label: routeTitles['share-list'] },
    { key: `${SETTING}/tariff-list`, label: routeTitles['tariff-list'] },
    {
      key: `${SETTING}/logs`,
      label: routeTitles.logs,
      children: [
        { key: `${SETTING}/offline-list`, label: routeTitles['offline-list'] },
        { key: `${SETTING}/operate-list`, label: routeTitles['operate-list'] },
        { key: `${SETTING}/stat-list`, label: routeTitles['stat-list'] },
        { key: `${SETTING}/cmd-list`, label: routeTitles['cmd-list'] },
      ],
    },
  ];
  if (flags.SmsConfig) {
    entries.push(
      { key: `${SETTING}/SmsTemplate`, label: routeTitles.SmsTemplate },
      { key: `${SETTING}/SmsNotification`, label: routeTitles.SmsNotification },
      { key: `${SETTING}/SmsRecharge`, label: routeTitles.SmsRecharge },
    );
  }
  return entries;
}

/** antd Menu items for a list of entries. */
export function toMenuItems(entries: MenuEntry[]): NonNullable<MenuProps['items']> {
  return entries.map(({ key, label, icon, children }) =>
    children ? { key, label, icon, children: toMenuItems(children) } : { key, label, icon },
  );
}

/** The sidebar entry a path belongs to (its longest matching key). */
export function activeKey(entries: MenuEntry[], pathname: string): string | undefined {
  const flat = entries.flatMap((entry) => [entry, ...(entry.children ?? [])]);
  return flat
    .filter((entry) => pathname === entry.key || pathname.startsWith(`${entry.key}/`))
    .sort((a, b) => b.key.length - a.key.length)[0]?.key;
}
