import type { ReactNode } from 'react';
import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import type { DashboardData } from '@/api/schema';
import { DASHBOARD_REFRESH_MS } from '@/api/dashboard/queries';
import { dashboard as t } from '@/locales/zh-CN';
import { AlarmPanel, LatestAlarms } from './components/Alarms';
import { ChinaMap, ProjectGrid } from './components/ChinaMap';
import { EnergyFigures, LoadIdentTile, PowerCurve, TariffSplit, TopConsumers } from './components/Energy';
import { EquipmentPanel } from './components/Equipment';
import { Panel } from './components/Panel';
import { ScaledStage, STAGE_WIDTH } from './ScaledStage';
import { screenTheme, type ScreenTheme } from './themes';
import './screen.css';

const HEADER = 84;
const GAP = 16;
const SIDE = 500;
const CENTER = STAGE_WIDTH - 2 * SIDE - 4 * GAP;
// header + padding + the columns (each 964 px: their tiles and gaps) make the 1080 px of the stage
const BODY = 1080 - HEADER - 2 * GAP;

interface Props {
  data: DashboardData;
  /** Opens a project's monitoring view (logged in); absent on a kiosk screen. */
  onOpenProject?: (sysno: number) => void;
  /** Buttons only a logged-in owner has (the kiosk links). */
  actions?: ReactNode;
  /** Fill the window (kiosk). */
  fill?: boolean;
}

function HeaderButton({ theme, onClick, label, icon, testId }: { theme: ScreenTheme; onClick: () => void; label: string; icon: ReactNode; testId: string }) {
  return (
    <button
      type="button"
      onClick={onClick}
      data-testid={testId}
      style={{ background: 'transparent', border: `1px solid ${theme.border}`, color: theme.text, borderRadius: 4, padding: '6px 14px', fontSize: 16, cursor: 'pointer', display: 'inline-flex', gap: 6, alignItems: 'center' }}
    >
      {icon}
      {label}
    </button>
  );
}

/** 数据大屏: a 1920×1080 large screen, scaled to its window, in the theme the profile chose. */
export function LargeScreen({ data, onOpenProject, actions, fill }: Props) {
  const theme = screenTheme(data.screen.theme, data.screen.brand_color);
  const column = (width: number, children: ReactNode) => (
    <div style={{ width, height: BODY, display: 'flex', flexDirection: 'column', gap: GAP, overflow: 'hidden' }}>{children}</div>
  );
  return (
    <ScaledStage background={theme.background} fill={fill}>
      {({ fullscreen, toggleFullscreen }) => (
        <div
          data-testid="large-screen"
          data-theme={data.screen.theme}
          style={{
            width: '100%',
            height: '100%',
            color: theme.text,
            background: `radial-gradient(ellipse at 50% 0%, ${theme.border} 0%, ${theme.background} 55%)`,
            fontFamily: "'PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC', sans-serif",
          }}
        >
          <header style={{ height: HEADER, display: 'grid', gridTemplateColumns: '1fr auto 1fr', alignItems: 'center', padding: `0 ${GAP * 1.5}px`, borderBottom: `1px solid ${theme.border}` }}>
            <div style={{ color: theme.muted, fontSize: 16, display: 'grid' }}>
              <span data-testid="updated-at">{t.updatedAt(data.updated_at)}</span>
              <span>{t.refresh(DASHBOARD_REFRESH_MS / 1000)}</span>
            </div>
            <h1 data-testid="screen-title" style={{ margin: 0, fontSize: 40, letterSpacing: 6, fontWeight: 700, color: theme.text, textShadow: `0 0 18px ${theme.accent}` }}>
              {data.screen.title}
            </h1>
            <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 12, alignItems: 'center' }}>
              <span style={{ color: theme.muted, fontSize: 15 }} data-testid="screen-theme">
                {t.theme}：{t.themes[data.screen.theme]}
              </span>
              {actions}
              <HeaderButton
                theme={theme}
                onClick={toggleFullscreen}
                label={fullscreen ? t.exitFullscreen : t.fullscreen}
                icon={fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
                testId="screen-fullscreen"
              />
            </div>
          </header>
          <div style={{ display: 'flex', gap: GAP, padding: GAP }}>
            {column(
              SIDE,
              <>
                <EquipmentPanel counts={data.counts} theme={theme} height={230} />
                <AlarmPanel alarms={data.alarms} theme={theme} height={250} />
                <LatestAlarms alarms={data.latest_alarms} theme={theme} height={452} />
              </>,
            )}
            {column(
              CENTER,
              <>
                <EnergyFigures energy={data.energy} theme={theme} />
                <Panel title={data.screen.map ? t.map : t.projectStates} theme={theme} height={540} testId="tile-map">
                  {data.screen.map ? (
                    <ChinaMap projects={data.projects} theme={theme} height={470} onOpen={onOpenProject} />
                  ) : (
                    <ProjectGrid projects={data.projects} theme={theme} height={470} onOpen={onOpenProject} />
                  )}
                </Panel>
                <PowerCurve power={data.power} theme={theme} height={268} />
              </>,
            )}
            {column(
              SIDE,
              <>
                <TariffSplit energy={data.energy} theme={theme} height={300} />
                <TopConsumers rows={data.top_consumers} theme={theme} height={504} />
                <LoadIdentTile value={data.load_ident} theme={theme} height={128} />
              </>,
            )}
          </div>
        </div>
      )}
    </ScaledStage>
  );
}

export { HeaderButton };
