import { useRef, useState, type PointerEvent } from 'react';
import { Radio, Typography } from 'antd';
import { PERIODS, periodColor, periodName, periodOfDigit, type Period } from '@/constants/periods';
import { tariffs } from '@/locales/zh-CN';
import { useAppStore } from '@/store/app';
import { describeSlots, normalSlots, paintSlots, SLOT_COUNT, slotTime } from '../slots';
import styles from '../tariff.module.css';

interface Props {
  /** 48 period digits (a form control's value). */
  value?: string;
  onChange?: (value: string) => void;
  readOnly?: boolean;
  testId?: string;
}

/** The slot a pointer is over, if it is a cell of this strip. */
function slotAt(strip: HTMLElement, x: number, y: number): number | null {
  const cell = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-slot]');
  if (!cell || !strip.contains(cell)) return null;
  return Number(cell.dataset.slot);
}

/**
 * A day's tariff periods as 48 half-hour cells coloured by period: pick a period, then click a cell
 * or drag across cells to paint them (a touch drag too). On a narrow screen the day is two rows of 12 hours.
 */
export function SlotStrip({ value = '', onChange, readOnly, testId }: Props) {
  const mobile = useAppStore((s) => s.device === 'mobile');
  const [brush, setBrush] = useState<Period>(1);
  const last = useRef<number | null>(null);
  const slots = normalSlots(value);
  // What was painted last: moves can come faster than the form hands the new value back.
  const latest = useRef(slots);
  latest.current = slots;
  const perRow = mobile ? SLOT_COUNT / 2 : SLOT_COUNT;
  // An hour label every 2 hours on one row, every 3 on two.
  const labelSpan = mobile ? 6 : 4;
  const rows = Array.from({ length: SLOT_COUNT / perRow }, (_, r) => r * perRow);

  function paint(from: number, to: number) {
    const next = paintSlots(latest.current, from, to, brush);
    if (next === latest.current) return;
    latest.current = next;
    onChange?.(next);
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (readOnly || event.button !== 0) return;
    const slot = slotAt(event.currentTarget, event.clientX, event.clientY);
    if (slot === null) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    last.current = slot;
    paint(slot, slot);
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    if (last.current === null) return;
    const slot = slotAt(event.currentTarget, event.clientX, event.clientY);
    if (slot === null || slot === last.current) return;
    // Fill from the last cell, so a quick drag leaves no gaps.
    paint(last.current, slot);
    last.current = slot;
  }

  const stop = () => {
    last.current = null;
  };

  return (
    <div data-testid={testId}>
      {!readOnly && (
        <div className={styles.palette}>
          <Typography.Text type="secondary">{tariffs.brush}</Typography.Text>
          <Radio.Group size="small" value={brush} onChange={(e) => setBrush(e.target.value)} optionType="button">
            {PERIODS.map((p) => (
              <Radio.Button key={p} value={p}>
                <span data-testid={testId && `${testId}-brush-${p}`}>
                  <span className={styles.swatch} style={{ background: periodColor(p) }} />
                  {periodName(p)}
                </span>
              </Radio.Button>
            ))}
          </Radio.Group>
        </div>
      )}
      <div
        className={`${styles.strip} ${readOnly ? styles.readOnly : ''}`}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={stop}
        onPointerCancel={stop}
      >
        {rows.map((first) => (
          <div key={first} className={styles.row}>
            <div className={styles.cells} style={{ gridTemplateColumns: `repeat(${perRow}, minmax(0, 1fr))` }}>
              {Array.from({ length: perRow }, (_, i) => {
                const slot = first + i;
                const period = periodOfDigit(slots[slot]);
                const label = `${slotTime(slot)}–${slotTime(slot + 1)} ${periodName(period)}`;
                return (
                  <button
                    key={slot}
                    type="button"
                    className={styles.cell}
                    data-slot={slot}
                    data-period={period}
                    style={{ background: periodColor(period) }}
                    title={label}
                    aria-label={label}
                    disabled={readOnly}
                    // The keyboard's Enter and Space paint too (a mouse already painted on pointer down).
                    onClick={(e) => e.detail === 0 && paint(slot, slot)}
                  />
                );
              })}
            </div>
            <div className={styles.hours} style={{ gridTemplateColumns: `repeat(${perRow / labelSpan}, minmax(0, 1fr))` }}>
              {Array.from({ length: perRow / labelSpan }, (_, i) => (
                <span key={i}>{slotTime(first + i * labelSpan).slice(0, 2)}</span>
              ))}
            </div>
          </div>
        ))}
      </div>
      <Typography.Text type="secondary" className={styles.summary}>
        {describeSlots(slots)}
      </Typography.Text>
    </div>
  );
}
