import { DatePicker, Segmented } from 'antd';
import type { Dayjs } from 'dayjs';
import { energy } from '@/locales/zh-CN';
import { serverNow } from '@/utils/format';
import { MAX_RANGE_DAYS, withView, type PeriodChoice, type View } from '../period';

interface Props {
  period: PeriodChoice;
  onPeriod: (period: PeriodChoice) => void;
}

const VIEWS: View[] = ['day', 'month', 'year', 'range'];
const PICKERS = { day: 'date', month: 'month', year: 'year' } as const;

/** Nothing after today can be chosen (the server would show nothing). */
const inFuture = (day: Dayjs) => day.isAfter(serverNow(), 'day');

/** Day / month / year / custom range, and the day, month, year or days in it (能耗统计, 报表统计). */
export function PeriodPicker({ period, onPeriod }: Props) {
  const set = (patch: Partial<PeriodChoice>) => onPeriod({ ...period, ...patch });
  return (
    <>
      <Segmented<View>
        value={period.view}
        onChange={(view) => onPeriod(withView(period, view))}
        options={VIEWS.map((view) => ({ value: view, label: energy.views[view] }))}
        data-testid="energy-view"
      />
      {period.view === 'range' ? (
        <DatePicker.RangePicker
          value={[period.date, period.end]}
          allowClear={false}
          disabledDate={(day, info) =>
            inFuture(day) || (info.from !== undefined && Math.abs(day.diff(info.from, 'day')) >= MAX_RANGE_DAYS)
          }
          onChange={(range) => range?.[0] && range[1] && set({ date: range[0], end: range[1] })}
          style={{ maxWidth: 280 }}
        />
      ) : (
        <DatePicker
          picker={PICKERS[period.view]}
          value={period.date}
          allowClear={false}
          disabledDate={inFuture}
          onChange={(date) => date && set({ date })}
          data-testid="energy-date"
        />
      )}
    </>
  );
}
