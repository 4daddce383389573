import type { DashboardData } from '@/api/schema';
import { dashboard as t } from '@/locales/zh-CN';
import type { ScreenTheme } from '../themes';
import { Figure, Panel } from './Panel';

/** Share of online equipment in whole percent; nothing registered counts as fully online. */
export function onlineRate(online: number, total: number): number {
  return total > 0 ? Math.round((online / total) * 100) : 100;
}

function Ring({ label, online, total, theme }: { label: string; online: number; total: number; theme: ScreenTheme }) {
  const rate = onlineRate(online, total);
  const color = rate === 100 ? theme.accent2 : rate >= 90 ? theme.accent : '#faad14';
  const radius = 38;
  const length = 2 * Math.PI * radius;
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 10, whiteSpace: 'nowrap' }} data-testid={`online-${label}`}>
      <svg width={96} height={96} viewBox="0 0 96 96" role="img" aria-label={`${label}${t.onlineRate} ${rate}%`}>
        <circle cx={48} cy={48} r={radius} fill="none" stroke={theme.grid} strokeWidth={10} />
        <circle
          cx={48}
          cy={48}
          r={radius}
          fill="none"
          stroke={color}
          strokeWidth={10}
          strokeLinecap="round"
          strokeDasharray={`${(length * rate) / 100} ${length}`}
          transform="rotate(-90 48 48)"
        />
        <text x={48} y={55} textAnchor="middle" fill={theme.text} fontSize={20} fontWeight={700}>
          {rate}%
        </text>
      </svg>
      <div>
        <div style={{ color: theme.text, fontSize: 18, fontWeight: 600 }}>{label}</div>
        <div style={{ color: theme.muted, fontSize: 15 }}>
          {t.online} <b style={{ color: theme.accent2 }}>{online}</b> / {total}
        </div>
        <div style={{ color: theme.muted, fontSize: 15 }}>
          {t.offline} <b style={{ color: total - online ? '#faad14' : theme.muted }}>{total - online}</b>
        </div>
      </div>
    </div>
  );
}

/** 设备概况: projects, and gateways and devices with their online rates. */
export function EquipmentPanel({ counts, theme, height }: { counts: DashboardData['counts']; theme: ScreenTheme; height: number }) {
  return (
    <Panel title={t.equipment} theme={theme} height={height} testId="tile-equipment">
      <div style={{ display: 'grid', gridTemplateColumns: '96px 1fr 1fr', alignItems: 'center', height: '100%', gap: 8 }}>
        <Figure label={t.projects} value={counts.project_count} theme={theme} size={44} />
        <Ring label={t.gateways} online={counts.gateway_online_count} total={counts.gateway_count} theme={theme} />
        <Ring label={t.devices} online={counts.device_online_count} total={counts.device_count} theme={theme} />
      </div>
    </Panel>
  );
}
