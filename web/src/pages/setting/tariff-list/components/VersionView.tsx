import { Tag, Typography } from 'antd';
import type { VersionRead } from '@/api/schema';
import { PERIODS, PRICE_KEYS, periodColor, periodName } from '@/constants/periods';
import { tariffs } from '@/locales/zh-CN';
import { SlotStrip } from './SlotStrip';
import styles from '../tariff.module.css';

/** A version's prices as period-coloured tags (periods without a price left out). */
export function PriceTags({ prices }: { prices: VersionRead['prices'] }) {
  return (
    <span className={styles.priceTags}>
      {PERIODS.filter((p) => prices[PRICE_KEYS[p]] !== null).map((p) => (
        <Tag key={p} color={periodColor(p)}>
          {periodName(p)} {prices[PRICE_KEYS[p]]?.toFixed(4)}
        </Tag>
      ))}
    </span>
  );
}

/** A stored version: its prices, each season's months and strip, and its holidays. */
export function VersionView({ version }: { version: VersionRead }) {
  return (
    <div>
      <PriceTags prices={version.prices} />
      {version.seasons.map((season) => (
        <div key={season.name} style={{ marginTop: 10 }}>
          <Typography.Text>
            {season.name}（{season.months.map(tariffs.month).join('、')}）
          </Typography.Text>
          <SlotStrip value={season.slots} readOnly />
        </div>
      ))}
      {version.holidays && (
        <div style={{ marginTop: 10 }}>
          <Typography.Text>
            {tariffs.holidays}（{version.holidays.dates.join('、')}）
          </Typography.Text>
          <SlotStrip value={version.holidays.slots} readOnly />
        </div>
      )}
    </div>
  );
}
