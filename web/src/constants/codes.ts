import { codes } from '@/locales/zh-CN';

/**
 * Display labels for the numeric codes and states of the spec (sections 3 and 4).
 * Each label function takes whatever the server sent (number, numeric string, null) and
 * answers the Chinese label.
 */
type Code = number | string | null | undefined;

function lookup(table: Record<number, string>, value: Code, fallback: string = codes.unknown): string {
  const key = Number(value);
  return value !== null && value !== undefined && value !== '' && key in table ? table[key] : fallback;
}

export const CHARGE_TYPES = codes.chargeType;
export const BUSINESS_TYPES = codes.businessType;
export const BILL_STATUSES = codes.billStatus;

export const chargeTypeLabel = (value: Code) => lookup(CHARGE_TYPES, value);
export const businessTypeLabel = (value: Code) => lookup(BUSINESS_TYPES, value);
export const billStatusLabel = (value: Code) => lookup(BILL_STATUSES, value);

/** State 1: 1 approved, 2 rejected, anything else void. */
export const state1Label = (value: Code) => lookup({ 1: codes.state1[1], 2: codes.state1[2] }, value, codes.state1.other);
export const state2Label = (value: Code) => lookup(codes.state2, value);
export const state3Label = (value: Code) => lookup(codes.state3, value);
export const state4Label = (value: Code) => lookup(codes.state4, value);
export const state5Label = (value: Code) => lookup(codes.state5, value);
/** State 6: 1 completed, 2 voided, anything else in progress. */
export const state6Label = (value: Code) => lookup({ 1: codes.state6[1], 2: codes.state6[2] }, value, codes.state6.other);

/** Device online flag: 0 offline, anything else online. */
export const isOnline = (value: Code): boolean => Number(value) !== 0;
export const onlineLabel = (value: Code) => (isOnline(value) ? codes.online.other : codes.online[0]);

/** Options for a Select built from one of the code tables. */
export function codeOptions(table: Record<number, string>): { value: number; label: string }[] {
  return Object.entries(table).map(([value, label]) => ({ value: Number(value), label }));
}
