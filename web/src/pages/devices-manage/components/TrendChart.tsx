import { useMemo } from 'react';
import { theme } from 'antd';
import type { TrendSeries } from '@/api/schema';
import { EChart } from '@/components/charts/EChart';
import { trendOption, type TrendGroup } from '../trend';

interface Props {
  labels: string[];
  series: TrendSeries[];
  group: TrendGroup;
  height?: number;
}

/** A line chart of one quantity over time; ECharts stays in its own chunk, loaded with the drawer. */
export default function TrendChart({ labels, series, group, height = 300 }: Props) {
  const primary = theme.useToken().token.colorPrimary;
  const option = useMemo(() => trendOption(labels, series, group, primary), [labels, series, group, primary]);
  return <EChart option={option} height={height} testId="trend-chart" />;
}
