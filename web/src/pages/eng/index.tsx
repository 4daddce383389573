import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Card } from 'antd';
import { useEnergyChart } from '@/api/energy/queries';
import { useProjectTree } from '@/api/projects/queries';
import type { EnergyScope, RankingQuery } from '@/api/schema';
import { energy } from '@/locales/zh-CN';
import { useAppStore } from '@/store/app';
import { serverNow } from '@/utils/format';
import type { Unit } from './chartOption';
import { detailDay, periodFields, type PeriodChoice } from './period';
import { scopeKey, scopeOfSelection } from './scopeTree';
import { EnergyChartCard } from './components/EnergyChartCard';
import { EnergySummary } from './components/EnergySummary';
import { EnergyTableCard } from './components/EnergyTableCard';
import { EnergyToolbar } from './components/EnergyToolbar';
import { RankingCard } from './components/RankingCard';
import { ScopeTree } from './components/ScopeTree';
import styles from './eng.module.css';

/** 能耗统计: a project, building or devices from the tree; their use by tariff period, compared, ranked and itemised. */
export default function EnergyPage() {
  const mobile = useAppStore((s) => s.device === 'mobile');
  const [params] = useSearchParams();
  const tree = useProjectTree();
  // ?node=p-1 / b-1-3 / d-1-11 opens a scope; otherwise the first project once the tree is in.
  const [chosen, setChosen] = useState<string | null>(() => params.get('node'));
  const [checked, setChecked] = useState<string[]>([]);
  const [period, setPeriod] = useState<PeriodChoice>(() => {
    const today = serverNow().startOf('day');
    return { view: 'day', date: today, end: today, resolution: 'hour' };
  });
  const [unit, setUnit] = useState<Unit>('kwh');
  const [rankBy, setRankBy] = useState<RankingQuery['by']>('device');
  const [top, setTop] = useState(10);

  const first = tree.data?.[0];
  const focus = chosen ?? (first ? scopeKey.project(first.sysno) : null);
  const selection = scopeOfSelection(focus, checked);
  const scope: EnergyScope | null = selection && { ...selection, ...periodFields(period) };
  const chart = useEnergyChart(scope);

  return (
    <div className={`${styles.layout} ${mobile ? styles.layoutMobile : ''}`} data-testid="energy-page">
      <Card size="small" title={energy.scopeTitle} className={`${styles.side} ${mobile ? styles.sideMobile : ''}`} styles={{ body: { padding: 8 } }}>
        <div className={styles.sideBody}>
          <ScopeTree
            projects={tree.data}
            loading={tree.isPending}
            focus={focus}
            checked={checked}
            onFocus={(key) => {
              setChosen(key);
              setChecked([]);
            }}
            onCheck={setChecked}
          />
        </div>
      </Card>
      <div className={styles.main}>
        <Card size="small">
          <EnergyToolbar period={period} onPeriod={setPeriod} unit={unit} onUnit={setUnit} />
        </Card>
        <EnergySummary chart={chart.data} loading={chart.isFetching} unit={unit} mobile={mobile} />
        <EnergyChartCard chart={chart.data} loading={chart.isFetching} unit={unit} mobile={mobile} />
        <div className={styles.lower}>
          <RankingCard scope={scope} unit={unit} by={rankBy} onBy={setRankBy} top={top} onTop={setTop} mobile={mobile} />
          <EnergyTableCard scope={scope} mobile={mobile} detailDay={detailDay(period, serverNow())} />
        </div>
      </div>
    </div>
  );
}
