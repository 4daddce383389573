import type { DashboardData } from '@/api/schema';
import { dashboard as t } from '@/locales/zh-CN';
import { LEVEL_COLORS, type ScreenTheme } from '../themes';
import { Figure, Panel } from './Panel';

type Alarms = DashboardData['alarms'];
type Latest = DashboardData['latest_alarms'];

function Levels({ rows, theme }: { rows: Alarms['today_by_level']; theme: ScreenTheme }) {
  const most = Math.max(1, ...rows.map((r) => r.count));
  return (
    <div style={{ display: 'grid', gap: 6 }}>
      {rows.map((row) => (
        <div key={row.level} style={{ display: 'grid', gridTemplateColumns: '40px 1fr 44px', alignItems: 'center', gap: 8, fontSize: 15 }}>
          <span style={{ color: LEVEL_COLORS[row.level] }}>{row.label}</span>
          <span style={{ height: 8, background: theme.grid, borderRadius: 4, overflow: 'hidden' }}>
            <span style={{ display: 'block', height: '100%', width: `${(row.count / most) * 100}%`, background: LEVEL_COLORS[row.level] }} />
          </span>
          <span style={{ color: theme.text, textAlign: 'right' }}>{row.count}</span>
        </div>
      ))}
    </div>
  );
}

/** 告警统计: alarms begun today and still open, by level. */
export function AlarmPanel({ alarms, theme, height }: { alarms: Alarms; theme: ScreenTheme; height: number }) {
  return (
    <Panel title={t.alarms} theme={theme} height={height} testId="tile-alarms">
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 24, height: '100%', alignContent: 'center' }}>
        <div data-testid="alarms-today">
          <Figure label={t.alarmsToday} value={alarms.today_count} color="#ff7875" theme={theme} />
          <Levels rows={alarms.today_by_level} theme={theme} />
        </div>
        <div data-testid="alarms-open">
          <Figure label={t.alarmsOpen} value={alarms.open_count} color="#ffc53d" theme={theme} />
          <Levels rows={alarms.open_by_level} theme={theme} />
        </div>
      </div>
    </Panel>
  );
}

const ROW_HEIGHT = 52;

function AlarmRow({ alarm, theme }: { alarm: Latest[number]; theme: ScreenTheme }) {
  return (
    <li style={{ height: ROW_HEIGHT, display: 'grid', gridTemplateColumns: '52px 1fr 118px', alignItems: 'center', gap: 10, borderBottom: `1px dashed ${theme.grid}`, fontSize: 15 }}>
      <span style={{ color: '#fff', background: LEVEL_COLORS[alarm.level], borderRadius: 3, textAlign: 'center', fontSize: 13, padding: '1px 0' }}>{alarm.level_name}</span>
      <span style={{ minWidth: 0 }}>
        <span style={{ display: 'block', color: theme.text, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
          {alarm.type_label} · {alarm.target_name}
        </span>
        <span style={{ display: 'block', color: theme.muted, fontSize: 13, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
          {alarm.project_name} · {alarm.open ? t.alarmOpen : t.alarmEnded}
        </span>
      </span>
      <span style={{ color: theme.muted, fontSize: 13, textAlign: 'right' }}>{alarm.start_time.slice(5, 16)}</span>
    </li>
  );
}

/**
 * 实时告警: the latest alarms, scrolling upwards without end when they do not fit. The scroll is a
 * CSS animation over the list twice, so a screen left open for days runs no timer for it.
 */
export function LatestAlarms({ alarms, theme, height }: { alarms: Latest; theme: ScreenTheme; height: number }) {
  const fits = alarms.length * ROW_HEIGHT <= height - 60;
  const seconds = Math.max(alarms.length * 3, 12);
  return (
    <Panel title={t.latestAlarms} theme={theme} height={height} testId="tile-latest-alarms">
      {alarms.length === 0 ? (
        <div style={{ color: theme.muted, textAlign: 'center', paddingTop: 40 }}>{t.noAlarms}</div>
      ) : (
        <div style={{ height: '100%', overflow: 'hidden' }}>
          <ul
            className={fits ? undefined : 'pp-screen-scroll'}
            style={{ listStyle: 'none', margin: 0, padding: 0, animationDuration: `${seconds}s` }}
            data-testid="latest-alarm-list"
          >
            {alarms.map((alarm) => (
              <AlarmRow key={alarm.sysno} alarm={alarm} theme={theme} />
            ))}
            {!fits && alarms.map((alarm) => <AlarmRow key={`again-${alarm.sysno}`} alarm={alarm} theme={theme} />)}
          </ul>
        </div>
      )}
    </Panel>
  );
}
