import { useMemo } from 'react';
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
  const option = useMemo(() => trendOption(labels, series, group), [labels, series, group]);
  return <EChart option={option} height={height} testId="trend-chart" />;
}
