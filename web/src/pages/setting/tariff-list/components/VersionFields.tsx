import { Alert, Button, DatePicker, Form, Input, InputNumber, Switch, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { PERIODS, PRICE_KEYS, periodColor, periodName } from '@/constants/periods';
import { tariffs } from '@/locales/zh-CN';
import { useAppStore } from '@/store/app';
import { uniformSlots } from '../slots';
import { monthProblems, priceProblems, type SeasonDraft, type VersionDraft } from '../version';
import { SlotStrip } from './SlotStrip';
import styles from '../tariff.module.css';

type NamePath = (string | number)[];

/** Twelve month tags to tick (a form control). */
function MonthPicker({ value = [], onChange }: { value?: number[]; onChange?: (months: number[]) => void }) {
  return (
    <div className={styles.months}>
      {Array.from({ length: 12 }, (_, i) => i + 1).map((m) => (
        <Tag.CheckableTag
          key={m}
          checked={value.includes(m)}
          onChange={(on) => onChange?.(on ? [...value, m].sort((a, b) => a - b) : value.filter((x) => x !== m))}
        >
          {tariffs.month(m)}
        </Tag.CheckableTag>
      ))}
    </div>
  );
}

interface Props {
  /** Where the version sits in the surrounding form: [] or ['version']. */
  prefix: NamePath;
  /** Dates the version may not begin on (a new version of a plan must begin after today). */
  disabledDate?: (day: Dayjs) => boolean;
  effectiveHint?: string;
}

/**
 * A version's fields inside an antd Form: effective date, a price per period, seasons (months and a
 * 48-slot strip each) and optional holidays. What the schema cannot check field by field (every month
 * in one season, a price for every period used) is listed live above the seasons.
 */
export function VersionFields({ prefix, disabledDate, effectiveHint }: Props) {
  const form = Form.useFormInstance();
  const mobile = useAppStore((s) => s.device === 'mobile');
  const seasons: SeasonDraft[] = Form.useWatch([...prefix, 'seasons'], form) ?? [];
  const prices: VersionDraft['prices'] | undefined = Form.useWatch([...prefix, 'prices'], form);
  const holidaysOn: boolean = Form.useWatch([...prefix, 'holidaysOn'], form) ?? false;
  const holidaySlots: string = Form.useWatch([...prefix, 'holidaySlots'], form) ?? '';
  const problems = [
    ...monthProblems(seasons),
    ...priceProblems({ prices: prices ?? { sharp: null, peak: null, flat: null, valley: null, deep: null }, seasons, holidaysOn, holidaySlots }),
  ];

  return (
    <div data-testid="version-fields">
      <Form.Item
        name={[...prefix, 'effective_date']}
        label={tariffs.effectiveDate}
        extra={effectiveHint}
        rules={[{ required: true, message: tariffs.effectiveRequired }]}
      >
        <DatePicker disabledDate={disabledDate} style={{ width: 200 }} />
      </Form.Item>
      <Typography.Text strong>{tariffs.prices}</Typography.Text>
      <div className={styles.priceGrid} style={{ marginTop: 8 }}>
        {PERIODS.map((p) => (
          <Form.Item
            key={p}
            name={[...prefix, 'prices', PRICE_KEYS[p]]}
            label={
              <span>
                <span className={styles.swatch} style={{ background: periodColor(p) }} />
                {periodName(p)}
              </span>
            }
          >
            <InputNumber min={0} max={100} step={0.0001} precision={4} placeholder={tariffs.priceUnused} style={{ width: '100%' }} />
          </Form.Item>
        ))}
      </div>
      <Typography.Text strong>{tariffs.seasons}</Typography.Text>
      {problems.length > 0 && (
        <Alert type="warning" showIcon className={styles.problems} style={{ marginTop: 8 }} title={problems.join('；')} data-testid="version-problems" />
      )}
      <Form.List name={[...prefix, 'seasons']}>
        {(fields, { add, remove }) => (
          <div style={{ marginTop: 8 }}>
            {fields.map((field, index) => (
              <div key={field.key} className={styles.season} data-testid={`season-${index}`}>
                <div className={`${styles.seasonHead} ${mobile ? styles.seasonHeadMobile : ''}`}>
                  <Form.Item name={[field.name, 'name']} label={tariffs.seasonName} rules={[{ required: true, whitespace: true, message: tariffs.seasonNameRequired }, { max: 32 }]}>
                    <Input maxLength={32} showCount />
                  </Form.Item>
                  <Form.Item name={[field.name, 'months']} label={tariffs.months} rules={[{ required: true, type: 'array', min: 1, message: tariffs.monthsRequired }]}>
                    <MonthPicker />
                  </Form.Item>
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    disabled={fields.length === 1}
                    onClick={() => remove(field.name)}
                    aria-label={tariffs.removeSeason}
                    title={tariffs.removeSeason}
                    style={{ marginTop: 30 }}
                  />
                </div>
                <Form.Item name={[field.name, 'slots']} label={tariffs.slots}>
                  <SlotStrip testId={`season-${index}-slots`} />
                </Form.Item>
              </div>
            ))}
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              disabled={fields.length >= 12}
              onClick={() => add({ name: tariffs.seasonDefault(fields.length + 1), months: [], slots: uniformSlots() })}
              style={{ marginBottom: 16 }}
            >
              {tariffs.addSeason}
            </Button>
          </div>
        )}
      </Form.List>
      <Form.Item
        name={[...prefix, 'holidaysOn']}
        valuePropName="checked"
        label={tariffs.holidays}
        extra={tariffs.holidaysOn}
        style={{ marginBottom: holidaysOn ? 8 : 0 }}
      >
        <Switch />
      </Form.Item>
      {holidaysOn && (
        <div className={styles.season}>
          <Form.Item name={[...prefix, 'holidayDates']} label={tariffs.holidayDates} rules={[{ required: true, type: 'array', min: 1, message: tariffs.holidayDatesRequired }]}>
            <DatePicker multiple maxTagCount="responsive" style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name={[...prefix, 'holidaySlots']} label={tariffs.slots}>
            <SlotStrip testId="holiday-slots" />
          </Form.Item>
        </div>
      )}
    </div>
  );
}
