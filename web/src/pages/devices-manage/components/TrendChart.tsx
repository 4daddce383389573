import { useMemo } from 'react';
import type { TrendSeries } from '@/api/schema';
import { EChart } from '@/components/charts/EChart';
import { trendOption } from '../trend';

interface Props {
  labels: string[];
  series: TrendSeries[];
  height?: number;
}

/** A line chart of one quantity over time; ECharts stays in its own chunk, loaded with the drawer. */
export default function TrendChart({ labels, series, height = 300 }: Props) {
  const option = useMemo(() => trendOption(labels, series), [labels, series]);
  return <EChart option={option} height={height} testId="trend-chart" />;
}
