import type { Rule } from 'antd/es/form';
import { account } from '@/locales/zh-CN';
import { isMobile, mobileRule } from '@/utils/phone';

const r = account.rules;

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 32;

export const required = (message: string): Rule => ({ required: true, whitespace: true, message });

export const passwordRules: Rule[] = [
  required(r.password),
  { min: PASSWORD_MIN, max: PASSWORD_MAX, message: r.passwordLength },
];

/** Confirm-password rule that compares with another field of the same form. */
export function confirmRule(field: string): Rule {
  return ({ getFieldValue }) => ({
    validator(_, value) {
      if (!value || getFieldValue(field) === value) return Promise.resolve();
      return Promise.reject(new Error(r.passwordMismatch));
    },
  });
}

/** Edit-info form (spec 5): name and mobile are required. */
export const editInfoRules = {
  name: [required(r.name)],
  mobile: [required(r.mobile)],
  email: [{ type: 'email', message: r.email }] as Rule[],
};

/** Transfer form (spec 5). Codes are required only for brands with SMS codes. */
export function transferRules(smsCode: boolean) {
  const code = smsCode ? [required(r.code)] : [];
  return {
    old_mobile: [required(r.currentAccount), mobileRule(r.mobileFormat)],
    new_mobile: [
      required(r.targetMobile),
      mobileRule(r.mobileFormat),
      ({ getFieldValue }) => ({
        validator(_, value) {
          return value && value === getFieldValue('old_mobile')
            ? Promise.reject(new Error(r.sameAccount))
            : Promise.resolve();
        },
      }),
    ] as Rule[],
    validate_code: code,
    target_validate_code: code,
  };
}

/** Why a code cannot be sent to `phone` yet, or null: it must be a mobile number. */
export function mobileSendProblem(phone: string | undefined, missing: string = r.mobile): string | null {
  if (!phone || !phone.trim()) return missing;
  return isMobile(phone) ? null : r.mobileFormat;
}

/** Why a transfer code cannot be sent yet, or null: the matching phone must be filled in, and be a mobile. */
export function transferSendProblem(target: 'current' | 'target', phone: string | undefined): string | null {
  return mobileSendProblem(phone, target === 'current' ? r.currentMobileBeforeSend : r.targetMobileBeforeSend);
}
