import { Card, Statistic, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import type { Comparison, EnergyChart } from '@/api/schema';
import { energy } from '@/locales/zh-CN';
import { formatChange, formatIn, formatNumber, type Unit } from '../chartOption';
import styles from '../eng.module.css';

/** What the cards show: the chart's answer, or any answer with the same totals and comparisons (报表统计). */
export type SummaryFigures = Pick<EnergyChart, 'start' | 'end' | 'total_kwh' | 'total_cost' | 'priced' | 'yoy' | 'mom'>;

interface Props {
  chart: SummaryFigures | undefined;
  loading: boolean;
  unit: Unit;
  mobile: boolean;
}

/** Using more than before is shown red, less green. */
const UP = '#F5222D';
const DOWN = '#52C41A';

interface ComparisonProps {
  comparison: Comparison | undefined;
  title: string;
  base: string;
  unit: Unit;
  loading: boolean;
  testId: string;
}

function ComparisonCard({ comparison, title, base, unit, loading, testId }: ComparisonProps) {
  const change = comparison ? (unit === 'kwh' ? comparison.kwh_change : comparison.cost_change) : null;
  const earlier = comparison ? (unit === 'kwh' ? comparison.kwh : comparison.cost) : 0;
  const color = change === null ? undefined : change > 0 ? UP : change < 0 ? DOWN : undefined;
  const icon = change === null || change === 0 ? null : change > 0 ? <ArrowUpOutlined /> : <ArrowDownOutlined />;
  return (
    <Card size="small" loading={loading && !comparison}>
      <Statistic title={title} value={formatChange(change)} prefix={icon} styles={{ content: { color } }} />
      {comparison && (
        <Tooltip title={energy.basePeriod(comparison.start, comparison.end)}>
          <Typography.Text type="secondary" className={styles.statNote} data-testid={testId}>
            {!comparison.complete
              ? energy.partialBase(base, formatIn(unit, earlier))
              : change === null && earlier === 0
                ? energy.noBase(base)
                : `${base} ${formatIn(unit, earlier)}`}
          </Typography.Text>
        </Tooltip>
      )}
    </Card>
  );
}

/** 总用电量, 总电费, 同比 and 环比 of the period shown. */
export function EnergySummary({ chart, loading, unit, mobile }: Props) {
  // The answer's end is exclusive (the next day at 00:00).
  const span = chart && energy.periodOf(chart.start.slice(0, 10), dayjs(chart.end.slice(0, 10)).subtract(1, 'day').format('YYYY-MM-DD'));
  return (
    <div className={`${styles.stats} ${mobile ? styles.statsMobile : ''}`} data-testid="energy-summary">
      <Card size="small" loading={loading && !chart}>
        <Statistic
          title={energy.totalKwh}
          value={chart ? formatNumber(chart.total_kwh) : '—'}
          suffix="kWh"
          styles={{ content: unit === 'kwh' ? { fontWeight: 600 } : undefined }}
          data-testid="energy-total-kwh"
        />
        <Typography.Text type="secondary" className={styles.statNote}>
          {span}
        </Typography.Text>
      </Card>
      <Card size="small" loading={loading && !chart}>
        <Statistic
          title={energy.totalCost}
          value={chart ? formatNumber(chart.total_cost) : '—'}
          prefix="¥"
          styles={{ content: unit === 'cost' ? { fontWeight: 600 } : undefined }}
          data-testid="energy-total-cost"
        />
        <Typography.Text type={chart && !chart.priced ? 'warning' : 'secondary'} className={styles.statNote}>
          {chart && (chart.priced ? span : energy.unpricedShort)}
        </Typography.Text>
      </Card>
      <ComparisonCard comparison={chart?.yoy} title={energy.yoy} base={energy.yoyBase} unit={unit} loading={loading} testId="energy-yoy-base" />
      <ComparisonCard comparison={chart?.mom} title={energy.mom} base={energy.momBase} unit={unit} loading={loading} testId="energy-mom-base" />
    </div>
  );
}
