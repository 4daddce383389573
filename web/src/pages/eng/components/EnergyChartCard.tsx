import { useMemo } from 'react';
import { Alert, Card, Empty, Spin, Tooltip, Typography } from 'antd';
import { Link } from 'react-router';
import type { EnergyChart } from '@/api/schema';
import { EChart } from '@/components/charts/EChart';
import { periodColor, periodName } from '@/constants/periods';
import { energy, routeTitles } from '@/locales/zh-CN';
import { energyChartOption, FLAG_STYLES, formatIn, periodShares, UNIT_NAMES, type Unit } from '../chartOption';
import styles from '../eng.module.css';

/** What the card draws: the chart's answer, or any answer with the same points and totals (报表统计). */
export type ChartFigures = Pick<EnergyChart, 'points' | 'priced' | 'partial' | 'total'>;

interface Props {
  chart: ChartFigures | undefined;
  loading: boolean;
  unit: Unit;
  mobile: boolean;
  /** Shown while nothing is chosen. */
  idleText?: string;
}

const HINTS = { estimated: energy.estimatedHint, reset: energy.resetHint, implausible: energy.implausibleHint };

/** The share of each tariff period in the total, as one stacked bar with a legend. */
function PeriodShares({ chart, unit }: { chart: ChartFigures; unit: Unit }) {
  const shares = periodShares(chart.total, unit);
  if (shares.length === 0) return null;
  return (
    <div data-testid="energy-shares">
      <div className={styles.shareBar} aria-hidden>
        {shares.map((s) => (
          <span key={s.period} style={{ width: `${s.share}%`, background: periodColor(s.period) }} />
        ))}
      </div>
      <div className={styles.shareLegend}>
        {shares.map((s) => (
          <span key={s.period}>
            <span className={styles.swatch} style={{ background: periodColor(s.period) }} />
            {periodName(s.period)} {formatIn(unit, s.value)}（{s.share.toFixed(1)}%）
          </span>
        ))}
      </div>
    </div>
  );
}

/** 用电趋势: bars stacked by tariff period, with the estimated and reset intervals marked and explained. */
export function EnergyChartCard({ chart, loading, unit, mobile, idleText = energy.pickProject }: Props) {
  const option = useMemo(() => chart && energyChartOption(chart, unit, { compact: mobile }), [chart, unit, mobile]);
  const flagged = chart ? (Object.keys(HINTS) as (keyof typeof HINTS)[]).filter((flag) => chart.points.some((p) => p[flag])) : [];
  const empty = chart !== undefined && chart.points.every((p) => p.total_kwh === 0 && !p.reset && !p.implausible);
  return (
    <Card
      size="small"
      title={energy.chartTitle(UNIT_NAMES[unit])}
      data-testid="energy-chart-card"
    >
      {chart && !chart.priced && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={energy.unpriced}
          action={<Link to="/user-manage/setting/tariff-list">{routeTitles['tariff-list']}</Link>}
        />
      )}
      {!chart ? (
        loading ? <Spin style={{ display: 'block', padding: '100px 0' }} /> : <Empty description={idleText} />
      ) : empty ? (
        <Empty description={energy.chartEmpty} style={{ padding: '60px 0' }} />
      ) : (
        <>
          <PeriodShares chart={chart} unit={unit} />
          {option && <EChart option={option} height={mobile ? 300 : 340} testId="energy-chart" />}
          {chart.partial && (
            <Typography.Text type="secondary" className={styles.shareLegend} style={{ display: 'block' }}>
              {energy.partial}
            </Typography.Text>
          )}
          {flagged.length > 0 && (
            <div className={styles.shareLegend} data-testid="energy-flags">
              {flagged.map((flag) => (
                <Tooltip key={flag} title={HINTS[flag]}>
                  <span>
                    <span className={styles.swatch} style={{ background: FLAG_STYLES[flag].color, borderRadius: '50%' }} />
                    {FLAG_STYLES[flag].name}：{HINTS[flag]}
                  </span>
                </Tooltip>
              ))}
            </div>
          )}
        </>
      )}
    </Card>
  );
}
