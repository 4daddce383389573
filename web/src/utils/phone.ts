import type { Rule } from 'antd/es/form';
import { common } from '@/locales/zh-CN';

/** A mainland mobile number: 1, then 3–9, then nine digits. */
const MOBILE = /^1[3-9]\d{9}$/;

/**
 * A landline: an area code of 3 or 4 digits starting with 0 (010, 0755), a 7- or 8-digit
 * subscriber number, with or without a hyphen between them, and an optional -extension.
 */
const LANDLINE = /^0\d{2,3}-?[1-9]\d{6,7}(-\d{1,6})?$/;

/** A nationwide 400/800 service number: 400-xxx-xxxx, hyphens optional. */
const SERVICE = /^[48]00-?\d{3}-?\d{4}$/;

/** A mobile number's length; the account and SMS schemas take exactly this many digits. */
export const MOBILE_LENGTH = 11;

/** True for a mainland mobile number (surrounding spaces are ignored). */
export function isMobile(value: string): boolean {
  return MOBILE.test(value.trim());
}

/** True for a mainland mobile, a landline (with optional extension) or a 400/800 number. */
export function isPhone(value: string): boolean {
  const text = value.trim();
  return MOBILE.test(text) || LANDLINE.test(text) || SERVICE.test(text);
}

/** An antd rule checking a filled-in field with `test`; an empty field is left to `required`. */
function formatRule(test: (value: string) => boolean, message: string): Rule {
  return {
    validator: (_, value: unknown) =>
      typeof value !== 'string' || value.trim() === '' || test(value)
        ? Promise.resolve()
        : Promise.reject(new Error(message)),
  };
}

/** Rule for a field that takes a mobile number only (accounts, SMS receivers). */
export function mobileRule(message: string = common.mobileInvalid): Rule {
  return formatRule(isMobile, message);
}

/** Rule for a contact phone: a mobile or a landline number. */
export function phoneRule(message: string = common.phoneInvalid): Rule {
  return formatRule(isPhone, message);
}
