import { Tag } from 'antd';
import type { ListColumn } from '@/components/ListTable';
import type { AlarmReportRow, AvailabilityRow, ControlGatewayRow, ControlTaskRow, OpenAlarm } from '@/api/schema';
import { reports } from '@/locales/zh-CN';
import { EMPTY, formatDuration } from '@/utils/format';
import styles from '../eng/eng.module.css';
import { LEVEL_COLORS } from './charts';

const numeric = { align: 'right', className: styles.numeric } as const;
const text = (v: string | null | undefined) => v || EMPTY;
const duration = (v: number | null | undefined) => (v === null || v === undefined ? EMPTY : formatDuration(v));
const percent = (v: number | null | undefined) => (v === null || v === undefined ? EMPTY : `${v.toFixed(2)}%`);
const count = (key: string, title: string, width = 90) => ({ title, dataIndex: key, key, width, ...numeric });
/** A column sorted by a number (most first on the first click). */
function byNumber<T>(key: keyof T & string, title: string, render?: (v: number) => string, width = 100) {
  return {
    title,
    dataIndex: key,
    key,
    width,
    ...numeric,
    sortDirections: ['descend', 'ascend'] as ('descend' | 'ascend')[],
    sorter: (a: T, b: T) => Number(a[key] ?? -1) - Number(b[key] ?? -1),
    ...(render ? { render } : {}),
  };
}

const a = reports.alarm;

/** 告警报表 by device: a device's (or gateway's) alarms by level, how many are active or unprocessed, durations. */
export function alarmColumns(mobile: boolean): ListColumn<AlarmReportRow>[] {
  return [
    { title: a.target, dataIndex: 'name', key: 'name', width: 150, ellipsis: true, fixed: mobile ? undefined : 'left' },
    { title: a.deviceId, dataIndex: 'device_id', key: 'device_id', width: 90, ellipsis: true },
    { title: a.gatewaySn, dataIndex: 'gateway_sn', key: 'gateway_sn', width: 120, ellipsis: true },
    { title: a.building, dataIndex: 'building_name', key: 'building', width: 100, ellipsis: true, render: text },
    { ...byNumber<AlarmReportRow>('count', a.count), defaultSortOrder: 'descend' },
    ...reports.levels.map((label, i) => ({
      title: label,
      key: `level-${i}`,
      width: 70,
      ...numeric,
      sorter: (x: AlarmReportRow, y: AlarmReportRow) => x.levels[i] - y.levels[i],
      render: (_: unknown, row: AlarmReportRow) => row.levels[i],
    })),
    byNumber<AlarmReportRow>('active', a.active, undefined, 90),
    byNumber<AlarmReportRow>('unprocessed', a.unprocessed, undefined, 90),
    byNumber<AlarmReportRow>('duration_seconds', a.durationSum, duration, 120),
    byNumber<AlarmReportRow>('longest_seconds', a.longest, duration, 110),
    byNumber<AlarmReportRow>('avg_process_seconds', a.processTime, duration, 120),
  ];
}

/** The period's alarms still active, oldest first. */
export function openAlarmColumns(): ListColumn<OpenAlarm>[] {
  return [
    { title: a.startTime, dataIndex: 'start_time', key: 'start', width: 160 },
    { title: a.target, dataIndex: 'target_name', key: 'name', width: 130, ellipsis: true },
    {
      title: a.type,
      dataIndex: 'alarm_type_name',
      key: 'type',
      width: 100,
      render: (name: string, row) => <Tag color={['blue', 'orange', 'red'][row.level - 1]}>{name}</Tag>,
    },
    { title: a.openFor, dataIndex: 'duration_seconds', key: 'open', width: 110, ...numeric, render: duration },
    { title: a.processState, dataIndex: 'process_state', key: 'state', width: 90, render: (v: number) => a.processStates[v] ?? EMPTY },
    { title: a.detail, dataIndex: 'detail', key: 'detail', width: 220, ellipsis: true },
  ];
}

const o = reports.availability;

/** 在线率报表: a gateway's or device's spells, time offline and online rate (the lowest first on sorting). */
export function availabilityColumns(devices: boolean, mobile: boolean): ListColumn<AvailabilityRow>[] {
  return [
    { title: o.name, dataIndex: 'name', key: 'name', width: 150, ellipsis: true, fixed: mobile ? undefined : 'left' },
    ...(devices ? [{ title: o.deviceId, dataIndex: 'device_id', key: 'device_id', width: 80, ellipsis: true }] : []),
    { title: o.gatewaySn, dataIndex: 'gateway_sn', key: 'gateway_sn', width: 120, ellipsis: true },
    { title: o.building, dataIndex: 'building_name', key: 'building', width: 100, ellipsis: true, render: text },
    {
      title: o.state,
      dataIndex: 'online',
      key: 'online',
      width: 90,
      render: (v: number) => <Tag color={v ? 'green' : 'default'}>{v ? o.online : o.offline}</Tag>,
    },
    byNumber<AvailabilityRow>('offline_count', o.offlineCount, undefined, 100),
    byNumber<AvailabilityRow>('offline_seconds', o.offlineSeconds, duration, 120),
    byNumber<AvailabilityRow>('longest_seconds', o.longest, duration, 110),
    {
      title: o.rate,
      dataIndex: 'online_rate',
      key: 'rate',
      width: 100,
      ...numeric,
      sortDirections: ['ascend', 'descend'],
      sorter: (x, y) => (x.online_rate ?? 101) - (y.online_rate ?? 101),
      render: (v: number | null) => (v === null ? o.notWatched : <span style={{ color: v < 100 ? LEVEL_COLORS[2] : undefined }}>{percent(v)}</span>),
    },
    { title: o.lastOffline, dataIndex: 'last_offline_time', key: 'last', width: 160, render: text },
  ];
}

const c = reports.control;

/** 控制报表 by gateway: its commands by outcome, success rate and response time. */
export function controlColumns(mobile: boolean): ListColumn<ControlGatewayRow>[] {
  return [
    { title: c.gateway, dataIndex: 'gateway_name', key: 'name', width: 140, ellipsis: true, fixed: mobile ? undefined : 'left' },
    { title: c.gatewaySn, dataIndex: 'gateway_sn', key: 'sn', width: 120, ellipsis: true },
    { title: c.building, dataIndex: 'building_name', key: 'building', width: 100, ellipsis: true, render: text },
    byNumber<ControlGatewayRow>('total', c.commands, undefined, 90),
    count('succeeded', c.outcomes.succeeded, 70),
    count('failed', c.outcomes.failed, 70),
    count('timeout', c.outcomes.timeout, 70),
    count('offline', c.outcomes.offline, 90),
    count('pending', c.outcomes.pending, 90),
    {
      ...byNumber<ControlGatewayRow>('success_rate', c.successRate, undefined, 100),
      sortDirections: ['ascend', 'descend'],
      render: (v: number | null) => percent(v),
    },
    byNumber<ControlGatewayRow>('avg_response_ms', `${c.avgResponse}(${c.ms})`, undefined, 130),
  ];
}

/** The timed tasks' runs and their commands to the scope's devices. */
export function taskColumns(): ListColumn<ControlTaskRow>[] {
  return [
    { title: c.task, dataIndex: 'name', key: 'name', width: 150, ellipsis: true },
    count('runs', c.runs),
    count('skipped', c.skipped),
    count('commands', c.commands),
    count('succeeded', c.outcomes.succeeded, 70),
    count('unsuccessful', c.outcomes.unsuccessful, 80),
    { title: c.successRate, dataIndex: 'success_rate', key: 'rate', width: 90, ...numeric, render: percent },
    { title: c.lastRun, dataIndex: 'last_run', key: 'last', width: 160, render: text },
  ];
}
