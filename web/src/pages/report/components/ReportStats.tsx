import type { ReactNode } from 'react';
import { Card, Statistic, Typography } from 'antd';
import styles from '../../eng/eng.module.css';

export interface Stat {
  title: string;
  value: string | number;
  suffix?: string;
  /** A line under the figure (what it is made of). */
  note?: ReactNode;
  color?: string;
  testId: string;
}

interface Props {
  stats: Stat[];
  loading: boolean;
  mobile: boolean;
}

/** The headline figures of a report, four to a row (two on a phone), as 能耗统计 shows its totals. */
export function ReportStats({ stats, loading, mobile }: Props) {
  return (
    <div className={`${styles.stats} ${mobile ? styles.statsMobile : ''}`} data-testid="report-stats">
      {stats.map((stat) => (
        <Card key={stat.testId} size="small" loading={loading}>
          <Statistic
            title={stat.title}
            value={stat.value}
            suffix={stat.suffix}
            styles={{ content: stat.color ? { color: stat.color } : undefined }}
            data-testid={stat.testId}
          />
          {stat.note !== undefined && (
            <Typography.Text type="secondary" className={styles.statNote}>
              {stat.note}
            </Typography.Text>
          )}
        </Card>
      ))}
    </div>
  );
}
