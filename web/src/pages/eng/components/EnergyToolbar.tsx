import { Segmented } from 'antd';
import { energy } from '@/locales/zh-CN';
import type { Unit } from '../chartOption';
import type { PeriodChoice, Resolution } from '../period';
import { PeriodPicker } from './PeriodPicker';
import styles from '../eng.module.css';

interface Props {
  period: PeriodChoice;
  onPeriod: (period: PeriodChoice) => void;
  unit: Unit;
  onUnit: (unit: Unit) => void;
}

/** Day / month / year / custom range, the date, the day's resolution, and kWh or ¥. */
export function EnergyToolbar({ period, onPeriod, unit, onUnit }: Props) {
  return (
    <div className={styles.toolbar} data-testid="energy-toolbar">
      <PeriodPicker period={period} onPeriod={onPeriod} />
      {period.view === 'day' && (
        <Segmented<Resolution>
          value={period.resolution}
          onChange={(resolution) => onPeriod({ ...period, resolution })}
          options={(['hour', 'quarter'] as const).map((r) => ({ value: r, label: energy.resolutions[r] }))}
        />
      )}
      <span className={styles.toolbarSpacer} />
      <Segmented<Unit>
        value={unit}
        onChange={onUnit}
        options={(['kwh', 'cost'] as const).map((u) => ({ value: u, label: energy.units[u] }))}
        aria-label={energy.unitLabel}
        data-testid="energy-unit"
      />
    </div>
  );
}
