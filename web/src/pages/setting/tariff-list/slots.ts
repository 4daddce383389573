import { FLAT, periodName, periodOfDigit, type Period } from '@/constants/periods';

/** A day's slot table: 48 digits, one per half hour from 00:00, each a period (0 尖 … 4 深谷). */
export const SLOT_COUNT = 48;

export function uniformSlots(period: Period = FLAT): string {
  return String(period).repeat(SLOT_COUNT);
}

/** The table with the slots from `from` to `to` (either order, both included) set to `period`. */
export function paintSlots(slots: string, from: number, to: number, period: Period): string {
  const lo = Math.max(0, Math.min(from, to));
  const hi = Math.min(SLOT_COUNT - 1, Math.max(from, to));
  const cells = normalSlots(slots).split('');
  for (let i = lo; i <= hi; i += 1) cells[i] = String(period);
  return cells.join('');
}

/** A table of exactly 48 valid digits (anything else read as 平), so a damaged value can still be edited. */
export function normalSlots(slots: string): string {
  return Array.from({ length: SLOT_COUNT }, (_, i) => String(periodOfDigit(slots[i] ?? ''))).join('');
}

/** The clock time a slot begins at; 48 is the end of the day, 24:00. */
export function slotTime(index: number): string {
  const minutes = index * 30;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${minutes % 60 === 0 ? '00' : '30'}`;
}

export interface SlotSpan {
  period: Period;
  /** First slot of the span. */
  from: number;
  /** Slot after the span's last. */
  to: number;
}

/** The runs of equal periods, in order of time. */
export function slotSpans(slots: string): SlotSpan[] {
  const table = normalSlots(slots);
  const spans: SlotSpan[] = [];
  for (let i = 0; i < SLOT_COUNT; i += 1) {
    const period = periodOfDigit(table[i]);
    const last = spans[spans.length - 1];
    if (last && last.period === period) last.to = i + 1;
    else spans.push({ period, from: i, to: i + 1 });
  }
  return spans;
}

/** The table in words: "00:00–08:00 谷；08:00–10:00 平；…". */
export function describeSlots(slots: string): string {
  return slotSpans(slots)
    .map((s) => `${slotTime(s.from)}–${slotTime(s.to)} ${periodName(s.period)}`)
    .join('；');
}

/** The periods a set of tables uses. */
export function periodsUsed(tables: string[]): Set<Period> {
  return new Set(tables.flatMap((t) => normalSlots(t).split('').map(periodOfDigit)));
}
