/** notice_type 3 is an offline record; 2 an alarm. The dialog asks for both. */
export const NOTICE_TYPE_ALARM = 2;
export const NOTICE_TYPE_OFFLINE = 3;
export const REQUESTED_NOTICE_TYPES = [NOTICE_TYPE_ALARM, NOTICE_TYPE_OFFLINE];
