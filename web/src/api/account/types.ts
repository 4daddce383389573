export interface LoginResult {
  token: string;
  account: string;
  name: string;
  mobile: string;
}

export interface CustomerInfo {
  sysno: number;
  account: string;
  mobile: string;
  name: string;
  email?: string | null;
  remark?: string | null;
  serial_no?: string | null;
  category_name1?: string | null;
  category_name2?: string | null;
  screen_title?: string | null;
}

export interface CustomerUpdate {
  name: string;
  email: string | null;
  remark: string | null;
  serial_no: string | null;
}

export interface PasswordUpdate {
  old_password: string;
  new_password: string;
  validate_code: string;
  mobile: string;
}

export interface TransferRequest {
  old_mobile: string;
  new_mobile: string;
  validate_code: string;
  target_validate_code: string;
  is_show_code: boolean;
}

/** Which phone a transfer code goes to. */
export type TransferSmsTarget = 1 | 2;
export const TRANSFER_SMS_CURRENT: TransferSmsTarget = 1;
export const TRANSFER_SMS_TARGET: TransferSmsTarget = 2;
