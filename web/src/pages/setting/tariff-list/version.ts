import dayjs, { type Dayjs } from 'dayjs';
import type { Prices, VersionRead, VersionWrite } from '@/api/schema';
import { PERIODS, PRICE_KEYS, periodName } from '@/constants/periods';
import { tariffs } from '@/locales/zh-CN';
import { periodsUsed, uniformSlots } from './slots';

const DAY = 'YYYY-MM-DD';
const ALL_MONTHS = Array.from({ length: 12 }, (_, i) => i + 1);

export type PriceKey = (typeof PRICE_KEYS)[number];

export interface SeasonDraft {
  name: string;
  months: number[];
  slots: string;
}

/** A version as the editor's form holds it. */
export interface VersionDraft {
  effective_date: Dayjs;
  prices: Record<PriceKey, number | null>;
  seasons: SeasonDraft[];
  holidaysOn: boolean;
  holidayDates: Dayjs[];
  holidaySlots: string;
}

/** A version to start from: a copy of `base` (new prices from `effective`), or one all-year season all 平. */
export function draftFrom(base: VersionRead | undefined, effective: Dayjs): VersionDraft {
  if (!base) {
    return {
      effective_date: effective,
      prices: { sharp: null, peak: null, flat: null, valley: null, deep: null },
      seasons: [{ name: tariffs.seasonDefault(1), months: ALL_MONTHS, slots: uniformSlots() }],
      holidaysOn: false,
      holidayDates: [],
      holidaySlots: uniformSlots(),
    };
  }
  return {
    effective_date: effective,
    prices: { ...base.prices },
    seasons: base.seasons.map((s) => ({ name: s.name, months: [...s.months], slots: s.slots })),
    holidaysOn: base.holidays !== null,
    holidayDates: (base.holidays?.dates ?? []).map((d) => dayjs(d)),
    holidaySlots: base.holidays?.slots ?? uniformSlots(),
  };
}

/** The draft as the API takes it; prices of unused periods are sent empty. */
export function toVersionWrite(draft: VersionDraft): VersionWrite {
  const prices: Prices = {};
  for (const key of PRICE_KEYS) prices[key] = draft.prices[key] ?? null;
  return {
    effective_date: draft.effective_date.format(DAY),
    prices,
    seasons: draft.seasons.map((s) => ({ name: s.name.trim(), months: [...s.months].sort((a, b) => a - b), slots: s.slots })),
    holidays: draft.holidaysOn
      ? { dates: [...new Set(draft.holidayDates.map((d) => d.format(DAY)))].sort(), slots: draft.holidaySlots }
      : null,
  };
}

const monthList = (months: number[]) => months.map(tariffs.month).join('、');

/** Months in no season, and months in more than one: the server wants each month in exactly one. */
export function monthProblems(seasons: Pick<SeasonDraft, 'months'>[]): string[] {
  const count = new Map<number, number>();
  for (const s of seasons) for (const m of s.months) count.set(m, (count.get(m) ?? 0) + 1);
  const missing = ALL_MONTHS.filter((m) => !count.has(m));
  const repeated = ALL_MONTHS.filter((m) => (count.get(m) ?? 0) > 1);
  return [
    ...(missing.length ? [tariffs.missingMonths(monthList(missing))] : []),
    ...(repeated.length ? [tariffs.repeatedMonths(monthList(repeated))] : []),
  ];
}

/** Periods a slot table uses that have no price. */
export function priceProblems(draft: Pick<VersionDraft, 'prices' | 'seasons' | 'holidaysOn' | 'holidaySlots'>): string[] {
  const tables = [...draft.seasons.map((s) => s.slots), ...(draft.holidaysOn ? [draft.holidaySlots] : [])];
  const used = periodsUsed(tables);
  return PERIODS.filter((p) => used.has(p) && (draft.prices[PRICE_KEYS[p]] ?? null) === null).map((p) =>
    tariffs.missingPrice(periodName(p)),
  );
}

/** The version in force on `today` (YYYY-MM-DD): the latest that has begun. Versions come newest first. */
export function versionInForce(versions: VersionRead[], today: string): VersionRead | undefined {
  return [...versions].sort((a, b) => b.effective_date.localeCompare(a.effective_date)).find((v) => v.effective_date <= today);
}

/** The next version to begin after `today`, if any. */
export function nextVersion(versions: VersionRead[], today: string): VersionRead | undefined {
  return [...versions].sort((a, b) => a.effective_date.localeCompare(b.effective_date)).find((v) => v.effective_date > today);
}

/** Everything that stops the server taking the draft, in Chinese (empty when it may be sent). */
export function versionProblems(draft: VersionDraft): string[] {
  return [...monthProblems(draft.seasons), ...priceProblems(draft)];
}
