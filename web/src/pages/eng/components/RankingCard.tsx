import { Card, Progress, Segmented, Select, Space } from 'antd';
import { ListTable } from '@/components/ListTable';
import { useEnergyRanking } from '@/api/energy/queries';
import type { EnergyScope, RankingQuery, RankingRow } from '@/api/schema';
import { energy } from '@/locales/zh-CN';
import { formatNumber, type Unit } from '../chartOption';
import styles from '../eng.module.css';

type By = RankingQuery['by'];

interface Props {
  scope: EnergyScope | null;
  unit: Unit;
  by: By;
  onBy: (by: By) => void;
  top: number;
  onTop: (top: number) => void;
  /** A narrow screen: the share as a number, leaving the width to the names. */
  mobile: boolean;
}

const TOPS = [5, 10, 20, 50];

/** 用电排行: the devices or buildings of the scope that used most over the period. */
export function RankingCard({ scope, unit, by, onBy, top, onTop, mobile }: Props) {
  const ranking = useEnergyRanking(scope && { ...scope, by, top });
  const rows = ranking.data ?? [];
  return (
    <Card
      size="small"
      title={energy.ranking}
      extra={
        <Space size={8}>
          <Segmented<By>
            size="small"
            value={by}
            onChange={onBy}
            options={(['device', 'building'] as const).map((b) => ({ value: b, label: energy.rankBy[b] }))}
          />
          <Select size="small" value={top} onChange={onTop} options={TOPS.map((n) => ({ value: n, label: energy.top(n) }))} style={{ width: 90 }} />
        </Space>
      }
      data-testid="energy-ranking"
    >
      <ListTable<RankingRow>
        tableId="energy-ranking"
        size="small"
        rowKey="sysno"
        pagination={false}
        loading={ranking.isFetching}
        dataSource={rows}
        locale={{ emptyText: energy.rankingEmpty }}
        columns={[
          { title: energy.rank, key: 'rank', width: mobile ? 40 : 56, keep: true, render: (_, __, i) => i + 1 },
          { title: energy.name, dataIndex: 'name', width: mobile ? 100 : 160, ellipsis: true, keep: true },
          {
            title: unit === 'kwh' ? energy.consumption : energy.cost,
            key: 'value',
            width: mobile ? 96 : 110,
            keep: true,
            align: 'right',
            className: styles.numeric,
            render: (_, row) => formatNumber(unit === 'kwh' ? row.kwh : row.cost),
          },
          {
            title: energy.share,
            dataIndex: 'share',
            width: mobile ? 64 : 130,
            keep: true,
            align: mobile ? 'right' : undefined,
            render: (share: number) =>
              mobile ? `${share.toFixed(1)}%` : <Progress percent={share} size="small" format={(p) => `${(p ?? 0).toFixed(1)}%`} />,
          },
        ]}
      />
    </Card>
  );
}
