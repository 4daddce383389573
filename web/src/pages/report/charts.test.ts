import { rankedOption, ringOption, stackedOption } from './charts';

type Series = { name: string; stack?: string; data: number[]; itemStyle: { color: string } };

describe('report charts', () => {
  it('stacks the series over the buckets, each in its colour', () => {
    const option = stackedOption(['00:00', '01:00'], [
      { name: '提示', values: [1, 0], color: '#409EFF' },
      { name: '紧急', values: [0, 3], color: '#F56C6C' },
    ], false) as { xAxis: { data: string[] }; series: Series[] };
    expect(option.xAxis.data).toEqual(['00:00', '01:00']);
    expect(option.series.map((s) => [s.name, s.stack, s.data, s.itemStyle.color])).toEqual([
      ['提示', 'total', [1, 0], '#409EFF'],
      ['紧急', 'total', [0, 3], '#F56C6C'],
    ]);
  });

  it('draws only the slices that have any', () => {
    const option = ringOption('告警类型', [{ name: '过流', value: 4 }, { name: '漏电', value: 0 }], true) as { series: { data: { name: string }[] }[] };
    expect(option.series[0].data.map((d) => d.name)).toEqual(['过流']);
  });

  it('ranks the first at the top, on a fixed axis for rates', () => {
    const option = rankedOption('在线率', [{ name: '网关', value: 91.67 }, { name: '水泵', value: 95 }], '%', '#F56C6C', 100) as {
      xAxis: { max: number };
      yAxis: { data: string[] };
      series: { data: number[] }[];
    };
    expect(option.yAxis.data).toEqual(['水泵', '网关']);
    expect(option.series[0].data).toEqual([95, 91.67]);
    expect(option.xAxis.max).toBe(100);
  });
});
