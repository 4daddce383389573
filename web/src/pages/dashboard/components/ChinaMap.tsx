import { useEffect, useMemo, useRef, useState } from 'react';
import * as echarts from 'echarts/core';
import { ScatterChart } from 'echarts/charts';
import { GeoComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { DashboardData } from '@/api/schema';
import { dashboard as t } from '@/locales/zh-CN';
import { escapeHtml } from '@/utils/html';
import china from '../map/china.json';
import { STATE_COLORS, type ScreenTheme } from '../themes';

echarts.use([GeoComponent, ScatterChart, TooltipComponent, CanvasRenderer]);
// Shipped with the app (map/README.md): no request leaves for map data.
echarts.registerMap('china', china as unknown as Parameters<typeof echarts.registerMap>[1]);

type Project = DashboardData['projects'][number];

interface Props {
  projects: Project[];
  theme: ScreenTheme;
  height: number;
  /** Opens a project's monitoring view; none on a kiosk screen (no login there). */
  onOpen?: (sysno: number) => void;
}

/** A project's tooltip on the map, as HTML: its name is escaped (whoever it is shared with, a kiosk, reads it). */
export function projectTooltip(project: Project): string {
  return `${escapeHtml(project.name)}<br/>${t.stateLabels[project.state]} · ${t.devices} ${project.device_online_count}/${project.device_count}`;
}

/** The projects on a map of China, each point coloured by its state, clickable where `onOpen` is given. */
export function ChinaMap({ projects, theme, height, onOpen }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const open = useRef(onOpen);
  open.current = onOpen;

  useEffect(() => {
    if (!host.current) return undefined;
    const instance = echarts.init(host.current);
    chart.current = instance;
    instance.on('click', (event) => {
      const sysno = (event.data as { sysno?: number } | undefined)?.sysno;
      if (sysno !== undefined) open.current?.(sysno);
    });
    return () => {
      instance.dispose();
      chart.current = null;
    };
  }, []);

  const placed = useMemo(() => projects.filter((p) => p.longitude !== null && p.latitude !== null), [projects]);
  const option = useMemo(
    () => ({
      animation: false,
      tooltip: {
        trigger: 'item',
        formatter: (p: { data?: Project & { value: number[] } }) => (p.data?.sysno ? projectTooltip(p.data) : ''),
      },
      geo: {
        map: 'china',
        roam: false,
        layoutCenter: ['50%', '56%'],
        layoutSize: '118%',
        itemStyle: { areaColor: theme.land, borderColor: theme.landBorder, borderWidth: 1 },
        emphasis: { disabled: true },
        label: { show: false },
        silent: true,
      },
      series: [
        {
          type: 'scatter',
          coordinateSystem: 'geo',
          symbolSize: 16,
          cursor: onOpen ? 'pointer' : 'default',
          label: { show: true, position: 'right', color: theme.text, fontSize: 13, formatter: '{b}' },
          itemStyle: { borderColor: '#fff', borderWidth: 1, shadowBlur: 12 },
          // Neighbouring sites (one city's) take their names on alternate sides, so both stay legible.
          data: placed.map((p, i) => ({
            ...p,
            value: [p.longitude, p.latitude],
            label: { position: i % 2 ? 'left' : 'right' },
            itemStyle: { color: STATE_COLORS[p.state], shadowColor: STATE_COLORS[p.state] },
          })),
        },
      ],
    }),
    [placed, theme, onOpen],
  );

  // Each point also as a button over the map, where ECharts drew it: keyboard and screen-reader users
  // (and the browser test) open a project as a mouse does.
  const [spots, setSpots] = useState<{ sysno: number; name: string; x: number; y: number }[]>([]);
  useEffect(() => {
    const instance = chart.current;
    if (!instance) return;
    instance.setOption(option, { notMerge: true });
    const found = [];
    for (const p of placed) {
      const at = instance.convertToPixel({ geoIndex: 0 }, [p.longitude ?? 0, p.latitude ?? 0]) as number[] | undefined;
      if (at) found.push({ sysno: p.sysno, name: p.name, x: at[0], y: at[1] });
    }
    setSpots(found);
  }, [option, placed]);

  const unplaced = projects.length - placed.length;
  return (
    <div style={{ position: 'relative', height }}>
      <div ref={host} style={{ width: '100%', height }} data-testid="china-map" data-points={placed.length} />
      {onOpen &&
        spots.map((spot) => (
          <button
            key={spot.sysno}
            type="button"
            aria-label={`${t.open}：${spot.name}`}
            data-testid={`map-point-${spot.sysno}`}
            onClick={() => onOpen(spot.sysno)}
            style={{ position: 'absolute', left: spot.x - 9, top: spot.y - 9, width: 18, height: 18, borderRadius: 9, padding: 0, border: 0, background: 'transparent', cursor: 'pointer' }}
          />
        ))}
      <div style={{ position: 'absolute', left: 8, bottom: 8, display: 'grid', gap: 4, fontSize: 14, color: theme.muted }}>
        {Object.entries(STATE_COLORS).map(([state, color]) => (
          <span key={state}>
            <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 5, background: color, marginRight: 6 }} />
            {t.stateLabels[state]} {projects.filter((p) => p.state === state).length}
          </span>
        ))}
        {unplaced > 0 && <span>{t.noPoint(unplaced)}</span>}
      </div>
    </div>
  );
}

/** Where the brand has no map: the projects as a grid of state cards. */
export function ProjectGrid({ projects, theme, height, onOpen }: Props) {
  return (
    <div style={{ height, overflow: 'hidden', display: 'grid', gridTemplateColumns: 'repeat(4, 1fr)', gap: 10, alignContent: 'start' }} data-testid="project-grid">
      {projects.slice(0, 40).map((p) => (
        <button
          key={p.sysno}
          type="button"
          onClick={onOpen ? () => onOpen(p.sysno) : undefined}
          style={{
            cursor: onOpen ? 'pointer' : 'default',
            textAlign: 'left',
            background: theme.panel,
            border: `1px solid ${STATE_COLORS[p.state]}`,
            borderRadius: 4,
            padding: '8px 10px',
            color: theme.text,
          }}
        >
          <div style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', fontSize: 15 }}>{p.name}</div>
          <div style={{ color: STATE_COLORS[p.state], fontSize: 13 }}>
            {t.stateLabels[p.state]} · {p.device_online_count}/{p.device_count}
          </div>
        </button>
      ))}
    </div>
  );
}
