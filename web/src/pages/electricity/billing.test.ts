import dayjs from 'dayjs';
import type { AccountRead } from '@/api/schema';
import { accountForm, createBody, formatYuan, NEW_ACCOUNT, orderBody, powerColor, ruleBody, updateBody, type AccountForm } from './billing';

const FORM: AccountForm = {
  ...(NEW_ACCOUNT as AccountForm),
  device_sysno: 7,
  holder_name: '  张三 ',
  holder_mobile: ' ',
  flat_price: 1.2345,
  opening_balance: 50,
};

describe('electricity billing helpers', () => {
  it('sends the tariff plan (null price) unless a flat price is chosen, and trims the texts', () => {
    expect(createBody(FORM)).toMatchObject({ device_sysno: 7, holder_name: '张三', holder_mobile: null, flat_price: null, opening_balance: 50, method: 'cash', remark: null });
    expect(createBody({ ...FORM, pricing: 'flat' }).flat_price).toBe(1.2345);
    const update = updateBody(3, { ...FORM, pricing: 'flat' });
    expect(update).toMatchObject({ sysno: 3, flat_price: 1.2345 });
    expect(update).not.toHaveProperty('opening_balance');
    expect(update).not.toHaveProperty('device_sysno');
  });

  it('reads an account back into the dialog', () => {
    const account = { holder_name: '李四', holder_mobile: null, notify_holder: true, charge_type: 2, flat_price: null, warn_balance: 20, cutoff_balance: 0, overdraft_limit: 5, keep_power: true, remark: null } as unknown as AccountRead;
    expect(accountForm(account)).toMatchObject({ pricing: 'plan', charge_type: 2, overdraft_limit: 5, keep_power: true, holder_mobile: undefined });
    expect(accountForm({ ...account, flat_price: 0.8 }).pricing).toBe('flat');
  });

  it('sends only the fields of the chosen business type', () => {
    const common = { account_sysno: 4, amount: 30, new_holder_name: '王五', method: 'cash' as const, old_final: 1, new_initial: 2, change_time: dayjs('2026-11-20 08:30:00') };
    expect(orderBody({ ...common, business_type: 1 })).toEqual({ account_sysno: 4, business_type: 1, remark: null, amount: 30 });
    expect(orderBody({ ...common, business_type: 2 })).toEqual({ account_sysno: 4, business_type: 2, remark: null, old_final: 1, new_initial: 2, change_time: '2026-11-20 08:30:00' });
    expect(orderBody({ ...common, business_type: 3, new_holder_mobile: '' })).toEqual({ account_sysno: 4, business_type: 3, remark: null, new_holder_name: '王五', new_holder_mobile: null });
    expect(orderBody({ ...common, business_type: 4 })).toEqual({ account_sysno: 4, business_type: 4, remark: null, method: 'cash' });
  });

  it('writes the rule as HH:MM with the holidays sorted once each', () => {
    const body = ruleBody({
      quiet: [dayjs('2026-01-01 22:00'), dayjs('2026-01-02 06:30')],
      quiet_weekends: true,
      holidays: [dayjs('2026-10-02'), dayjs('2026-10-01'), dayjs('2026-10-02')],
    });
    expect(body).toEqual({ quiet_start: '22:00', quiet_end: '06:30', quiet_weekends: true, holidays: ['2026-10-01', '2026-10-02'] });
    expect(ruleBody({ quiet: null, quiet_weekends: false, holidays: [] })).toEqual({ quiet_start: null, quiet_end: null, quiet_weekends: false, holidays: [] });
  });

  it('formats money and power states', () => {
    expect(formatYuan(1234.5)).toBe('1,234.50');
    expect(formatYuan(-3)).toBe('-3.00');
    expect(powerColor('on')).toBe('success');
    expect(powerColor('cut')).toBe('error');
    expect(powerColor('cut_pending')).toBe('warning');
  });
});
