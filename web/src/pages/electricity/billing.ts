import type { Dayjs } from 'dayjs';
import type { AccountCreate, AccountRead, AccountUpdate, OrderCreate, RuleRead, RuleWrite } from '@/api/schema';

/** The server's limits (billing/schemas.py): money in yuan with two decimals, prices with four. */
export const MONEY_MAX = 1_000_000;
export const PRICE_MAX = 100;
export const TEXT_MAX = { holder: 32, remark: 255, keyword: 64 } as const;

export type Method = AccountCreate['method'];
export type Option<V> = { value: V; label: string };

/** A code table of GetBillingOptions as Select options. */
export function optionList<V extends string | number>(table: { [key: string]: number | string }[] | undefined): Option<V>[] {
  return (table ?? []).map((row) => ({ value: row.value as V, label: String(row.label) }));
}

/** Yuan with two decimals and the thousands grouped: 1234.5 → "1,234.50". */
export function formatYuan(amount: number | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  return amount.toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** The tag colour of a power state: 供电 green, waiting orange, 已断电 red. */
export function powerColor(power: string): string {
  if (power === 'on') return 'success';
  if (power === 'cut') return 'error';
  return 'warning';
}

/** What the account dialog edits; `pricing` chooses between the project's tariff plan and a flat price. */
export interface AccountForm {
  device_sysno?: number;
  holder_name: string;
  holder_mobile?: string;
  notify_holder: boolean;
  charge_type: 1 | 2 | 3;
  pricing: 'plan' | 'flat';
  flat_price?: number | null;
  warn_balance: number;
  cutoff_balance: number;
  overdraft_limit: number;
  keep_power: boolean;
  remark?: string;
  opening_balance?: number;
  method?: Method;
}

export const NEW_ACCOUNT: Partial<AccountForm> = {
  notify_holder: false,
  charge_type: 1,
  pricing: 'plan',
  warn_balance: 20,
  cutoff_balance: 0,
  overdraft_limit: 0,
  keep_power: false,
  opening_balance: 0,
  method: 'cash',
};

/** The dialog's values for an account being edited. */
export function accountForm(account: AccountRead): AccountForm {
  return {
    holder_name: account.holder_name,
    holder_mobile: account.holder_mobile ?? undefined,
    notify_holder: account.notify_holder,
    charge_type: account.charge_type as 1 | 2 | 3,
    pricing: account.flat_price === null ? 'plan' : 'flat',
    flat_price: account.flat_price,
    warn_balance: account.warn_balance,
    cutoff_balance: account.cutoff_balance,
    overdraft_limit: account.overdraft_limit,
    keep_power: account.keep_power,
    remark: account.remark ?? undefined,
  };
}

function settings(values: AccountForm) {
  return {
    holder_name: values.holder_name.trim(),
    holder_mobile: values.holder_mobile?.trim() || null,
    notify_holder: values.notify_holder,
    charge_type: values.charge_type,
    flat_price: values.pricing === 'flat' ? (values.flat_price ?? null) : null,
    warn_balance: values.warn_balance,
    cutoff_balance: values.cutoff_balance,
    overdraft_limit: values.overdraft_limit,
    keep_power: values.keep_power,
    remark: values.remark?.trim() || null,
  };
}

/** The AddAccount body of the dialog's values. */
export function createBody(values: AccountForm): AccountCreate {
  return {
    ...settings(values),
    device_sysno: values.device_sysno ?? 0,
    opening_balance: values.opening_balance ?? 0,
    method: values.method ?? 'cash',
  };
}

/** The UpdateAccount body of the dialog's values. */
export function updateBody(sysno: number, values: AccountForm): AccountUpdate {
  return { ...settings(values), sysno };
}

export interface OrderForm {
  account_sysno: number;
  business_type: 1 | 2 | 3 | 4;
  amount?: number;
  old_final?: number;
  new_initial?: number;
  change_time?: Dayjs;
  new_holder_name?: string;
  new_holder_mobile?: string;
  method?: Method;
  remark?: string;
}

/** The AddOrder body: only the fields the chosen business type takes. */
export function orderBody(values: OrderForm): OrderCreate {
  const body: OrderCreate = {
    account_sysno: values.account_sysno,
    business_type: values.business_type,
    remark: values.remark?.trim() || null,
  };
  switch (values.business_type) {
    case 1:
      return { ...body, amount: values.amount ?? null };
    case 2:
      return {
        ...body,
        old_final: values.old_final ?? null,
        new_initial: values.new_initial ?? null,
        change_time: values.change_time ? values.change_time.format('YYYY-MM-DD HH:mm:ss') : null,
      };
    case 3:
      return { ...body, new_holder_name: values.new_holder_name?.trim() || null, new_holder_mobile: values.new_holder_mobile?.trim() || null };
    default:
      return { ...body, method: values.method ?? null };
  }
}

export interface RuleForm {
  quiet?: [Dayjs, Dayjs] | null;
  quiet_weekends: boolean;
  holidays: Dayjs[];
}

/** The SaveCutoffRule body: the window as HH:MM (both or neither), the holidays sorted and once each. */
export function ruleBody(values: RuleForm): RuleWrite {
  const [start, end] = values.quiet ?? [];
  const days = [...new Set((values.holidays ?? []).map((d) => d.format('YYYY-MM-DD')))].sort();
  return {
    quiet_start: start ? start.format('HH:mm') : null,
    quiet_end: end ? end.format('HH:mm') : null,
    quiet_weekends: values.quiet_weekends,
    holidays: days,
  };
}

/** Whether a rule has a quiet window at all. */
export function hasWindow(rule: Pick<RuleRead, 'quiet_start' | 'quiet_end'>): boolean {
  return Boolean(rule.quiet_start && rule.quiet_end);
}
