import { useEffect, useRef } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart, PieChart, ScatterChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import type { EChartsCoreOption } from 'echarts/core';

// Every chart kind and component the app draws with; ECharts is a chunk of its own (vite.config.ts).
echarts.use([BarChart, LineChart, PieChart, ScatterChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

interface Props {
  option: EChartsCoreOption;
  height?: number;
  /** An ECharts theme registered with `echarts.registerTheme`; ECharts' own by default. */
  theme?: string;
  testId?: string;
}

/** One ECharts chart: drawn with `option` (replaced, not merged), sized with its container, disposed with it. */
export function EChart({ option, height = 280, theme, testId }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    if (!host.current) return undefined;
    const instance = echarts.init(host.current, theme);
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(host.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [theme]);

  // Runs after the effect above, so a chart made anew for another theme is drawn again too.
  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option, theme]);

  return <div ref={host} style={{ width: '100%', height }} data-testid={testId} />;
}
