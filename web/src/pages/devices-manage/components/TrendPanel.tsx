import { lazy, Suspense, useMemo, useState } from 'react';
import { Empty, Segmented, Spin, Typography } from 'antd';
import { useDeviceTrend } from '@/api/devices/queries';
import { monitoring } from '@/locales/zh-CN';
import { axisLabels, hasReadings, seriesOf, TREND_GROUPS, type TrendGroup } from '../trend';

const TrendChart = lazy(() => import('./TrendChart'));

/** The last 24 hours of one device, one quantity at a time. */
export function TrendPanel({ sysno }: { sysno: number }) {
  const [group, setGroup] = useState<TrendGroup>('voltage');
  const trend = useDeviceTrend(sysno, 24);
  const labels = useMemo(() => axisLabels(trend.data?.times ?? []), [trend.data]);
  const series = useMemo(() => (trend.data ? seriesOf(trend.data, group) : []), [trend.data, group]);

  const loading = <Spin tip={monitoring.trendLoading} style={{ display: 'block', padding: '80px 0' }}><div /></Spin>;
  return (
    <div data-testid="trend-panel">
      <Segmented<TrendGroup> options={TREND_GROUPS} value={group} onChange={setGroup} style={{ marginBottom: 12 }} />
      {trend.isPending ? (
        loading
      ) : !trend.data || !hasReadings(trend.data) ? (
        <Empty description={monitoring.trendEmpty} />
      ) : (
        <>
          <Suspense fallback={loading}>
            <TrendChart labels={labels} series={series} group={group} />
          </Suspense>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {trend.data.start_time} ~ {trend.data.end_time}
          </Typography.Text>
        </>
      )}
    </div>
  );
}
