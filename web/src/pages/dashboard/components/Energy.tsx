import { useMemo } from 'react';
import type { EChartsCoreOption } from 'echarts/core';
import { EChart } from '@/components/charts/EChart';
import type { DashboardData } from '@/api/schema';
import { dashboard as t } from '@/locales/zh-CN';
import { escapeHtml } from '@/utils/html';
import { PERIOD_COLORS, type ScreenTheme } from '../themes';
import { formatNumber, Panel } from './Panel';

type Energy = DashboardData['energy'];
const SPANS = [
  ['today', t.today],
  ['month', t.month],
  ['year', t.year],
] as const;

/** Today's, this month's and this year's kWh and ¥ in a row of figures. */
export function EnergyFigures({ energy, theme }: { energy: Energy; theme: ScreenTheme }) {
  return (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: 16, height: 124, flex: 'none' }} data-testid="tile-energy">
      {SPANS.map(([key, label]) => (
        <div key={key} style={{ background: theme.panel, border: `1px solid ${theme.border}`, borderRadius: 6, padding: '12px 18px' }} data-testid={`energy-${key}`}>
          <div style={{ color: theme.muted, fontSize: 16 }}>{label}{t.kwh.replace(' (kWh)', '')}</div>
          <div style={{ color: theme.accent, fontSize: 36, fontWeight: 700, fontFamily: 'DIN Alternate, Bahnschrift, Roboto Mono, monospace', lineHeight: 1.2 }}>
            {formatNumber(energy[key].total_kwh, 1)}
            <span style={{ fontSize: 15, color: theme.muted, marginLeft: 4, fontWeight: 400 }}>kWh</span>
          </div>
          <div style={{ color: theme.muted, fontSize: 15 }}>
            {t.cost.replace(' (元)', '')} <b style={{ color: theme.accent2, fontSize: 20 }}>¥{formatNumber(energy[key].total_cost)}</b>
          </div>
        </div>
      ))}
    </div>
  );
}

/** A span's kWh of one tariff period as a share of the span's whole, in percent. */
export function periodShare(energy: Energy, span: 'today' | 'month' | 'year', period: number): number {
  const whole = energy[span].kwh.reduce((a, b) => a + b, 0);
  return whole > 0 ? Math.round(((energy[span].kwh[period] ?? 0) / whole) * 1000) / 10 : 0;
}

/** 分时电量: each span's kWh split by tariff period, as shares (today's split reads as well as the year's). */
export function TariffSplit({ energy, theme, height }: { energy: Energy; theme: ScreenTheme; height: number }) {
  const option = useMemo<EChartsCoreOption>(
    () => ({
      animation: false,
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'shadow' },
        formatter: (items: { axisValue: string; dataIndex: number; seriesIndex: number; marker: string; seriesName: string }[]) => {
          const span = SPANS[items[0]?.dataIndex ?? 0][0];
          const lines = items.map((i) => `${i.marker}${escapeHtml(i.seriesName)} ${formatNumber(energy[span].kwh[i.seriesIndex] ?? 0)} kWh（${periodShare(energy, span, i.seriesIndex)}%）`);
          return [escapeHtml(items[0]?.axisValue ?? ''), ...lines].join('<br/>');
        },
      },
      legend: { top: 0, textStyle: { color: theme.muted, fontSize: 14 }, itemWidth: 14, itemHeight: 10 },
      grid: { left: 70, right: 24, top: 36, bottom: 8, containLabel: false },
      xAxis: { type: 'value', max: 100, axisLabel: { color: theme.muted, fontSize: 13, formatter: '{value}%' }, splitLine: { lineStyle: { color: theme.grid } } },
      yAxis: { type: 'category', data: SPANS.map(([, label]) => label), axisLabel: { color: theme.text, fontSize: 15 }, axisLine: { lineStyle: { color: theme.grid } } },
      series: energy.periods.map((name, i) => ({
        name,
        type: 'bar',
        stack: 'kwh',
        barWidth: 22,
        itemStyle: { color: PERIOD_COLORS[i] },
        data: SPANS.map(([key]) => periodShare(energy, key, i)),
      })),
    }),
    [energy, theme],
  );
  return (
    <Panel title={t.tariffSplit} theme={theme} height={height} testId="tile-tariff">
      <EChart option={option} height={height - 60} testId="tariff-chart" />
    </Panel>
  );
}

/** 近 24 小时总功率: quarter-hour averages of all projects. */
export function PowerCurve({ power, theme, height }: { power: DashboardData['power']; theme: ScreenTheme; height: number }) {
  const option = useMemo<EChartsCoreOption>(
    () => ({
      animation: false,
      tooltip: { trigger: 'axis', valueFormatter: (v: number) => `${formatNumber(v)} kW` },
      grid: { left: 64, right: 24, top: 16, bottom: 30 },
      xAxis: {
        type: 'category',
        boundaryGap: false,
        data: power.map((p) => p.time),
        axisLabel: { color: theme.muted, fontSize: 13, interval: 11 },
        axisLine: { lineStyle: { color: theme.grid } },
      },
      yAxis: { type: 'value', name: '', axisLabel: { color: theme.muted, fontSize: 13 }, splitLine: { lineStyle: { color: theme.grid } } },
      series: [
        {
          type: 'line',
          name: t.power,
          data: power.map((p) => p.kw),
          showSymbol: false,
          smooth: true,
          lineStyle: { color: theme.accent, width: 2 },
          areaStyle: {
            color: {
              type: 'linear',
              x: 0,
              y: 0,
              x2: 0,
              y2: 1,
              colorStops: [
                { offset: 0, color: `${theme.accent}88` },
                { offset: 1, color: `${theme.accent}00` },
              ],
            },
          },
        },
      ],
    }),
    [power, theme],
  );
  const now = power.length ? power[power.length - 1].kw : 0;
  return (
    <Panel
      title={t.power}
      theme={theme}
      height={height}
      testId="tile-power"
      extra={<span style={{ color: theme.accent, fontSize: 22, fontWeight: 700 }} data-testid="power-now">{formatNumber(now)} kW</span>}
    >
      <EChart option={option} height={height - 60} testId="power-chart" />
    </Panel>
  );
}

/** 今日用电排行: the ten devices that used most today. */
export function TopConsumers({ rows, theme, height }: { rows: DashboardData['top_consumers']; theme: ScreenTheme; height: number }) {
  const most = Math.max(0.001, ...rows.map((r) => r.kwh));
  return (
    <Panel title={t.top} theme={theme} height={height} testId="tile-top">
      {rows.length === 0 ? (
        <div style={{ color: theme.muted, textAlign: 'center', paddingTop: 40 }}>{t.noTop}</div>
      ) : (
        <ol style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 6 }}>
          {rows.map((row, i) => (
            <li key={row.device_sysno} style={{ display: 'grid', gridTemplateColumns: '28px 1fr 96px', gap: 10, alignItems: 'center', fontSize: 15 }}>
              <span style={{ color: i < 3 ? '#0b1220' : theme.text, background: i < 3 ? theme.accent : theme.grid, borderRadius: 3, textAlign: 'center', fontWeight: 700 }}>{i + 1}</span>
              <span style={{ minWidth: 0 }}>
                <span style={{ display: 'flex', justifyContent: 'space-between', gap: 8, color: theme.text }}>
                  <span style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>{row.name}</span>
                  <span style={{ color: theme.muted, fontSize: 13, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: 150 }}>{row.project_name}</span>
                </span>
                <span style={{ display: 'block', height: 6, background: theme.grid, borderRadius: 3, marginTop: 3 }}>
                  <span style={{ display: 'block', height: '100%', borderRadius: 3, width: `${(row.kwh / most) * 100}%`, background: `linear-gradient(90deg, ${theme.accent2}, ${theme.accent})` }} />
                </span>
              </span>
              <span style={{ color: theme.accent, textAlign: 'right', fontWeight: 600 }}>{formatNumber(row.kwh)} kWh</span>
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}

/** 负荷识别: forbidden appliances caught today, or 未开通 where load identification keeps no events. */
export function LoadIdentTile({ value, theme, height }: { value: DashboardData['load_ident']; theme: ScreenTheme; height: number }) {
  return (
    <Panel title={t.loadIdent} theme={theme} height={height} testId="tile-load-ident">
      <div style={{ display: 'flex', alignItems: 'center', gap: 24, height: '100%' }}>
        <div>
          <div style={{ color: theme.muted, fontSize: 15 }}>{t.violations}</div>
          <div style={{ color: value.violations_today ? '#ff4d4f' : theme.accent2, fontSize: 40, fontWeight: 700 }}>{value.violations_today}</div>
        </div>
        {!value.available && (
          <div style={{ color: theme.muted, fontSize: 14 }}>
            <span style={{ border: `1px solid ${theme.border}`, borderRadius: 3, padding: '1px 8px', marginRight: 8, color: theme.text }}>{t.loadIdentOff}</span>
            {t.loadIdentOffNote}
          </div>
        )}
      </div>
    </Panel>
  );
}
