import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { TrendSeries } from '@/api/devices/types';

echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

interface Props {
  labels: string[];
  series: TrendSeries[];
  height?: number;
}

/** A line chart of one quantity over time; ECharts stays in its own chunk, loaded with the drawer. */
export default function TrendChart({ labels, series, height = 300 }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    if (!host.current) return undefined;
    const instance = echarts.init(host.current);
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(host.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const unit = series[0]?.unit ?? '';
    chart.current?.setOption(
      {
        grid: { left: 48, right: 16, top: 36, bottom: 56 },
        tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? `${v} ${unit}` : '—') },
        legend: { top: 0, data: series.map((s) => s.label) },
        xAxis: { type: 'category', boundaryGap: false, data: labels },
        yAxis: { type: 'value', name: unit, scale: true },
        dataZoom: [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 8 }],
        series: series.map((s) => ({
          name: s.label,
          type: 'line',
          showSymbol: s.data.filter((v) => v !== null).length < 40,
          connectNulls: false,
          data: s.data,
        })),
      },
      { notMerge: true },
    );
  }, [labels, series]);

  return <div ref={host} style={{ width: '100%', height }} data-testid="trend-chart" />;
}
