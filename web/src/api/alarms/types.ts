/** notice_type 3 is an offline record; 2 an alarm; 4 a scheduled report made or failed; 5 an electricity account low on balance. The dialog asks for all. */
export const NOTICE_TYPE_ALARM = 2;
export const NOTICE_TYPE_OFFLINE = 3;
export const NOTICE_TYPE_REPORT = 4;
export const NOTICE_TYPE_BILLING = 5;
export const REQUESTED_NOTICE_TYPES = [NOTICE_TYPE_ALARM, NOTICE_TYPE_OFFLINE, NOTICE_TYPE_REPORT, NOTICE_TYPE_BILLING];
