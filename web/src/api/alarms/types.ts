import type { components } from '@/api/schema';

type Schemas = components['schemas'];

export type NoticePoll = Schemas['NoticePoll'];
export type NoticeQuery = Schemas['NoticeQuery'];
export type NoticeRead = Schemas['NoticeRead'];
export type BatchReadResult = Schemas['BatchReadResult'];
export type AlarmRead = Schemas['AlarmRead'];
export type AlarmQuery = Schemas['AlarmQuery'];
export type AlarmTypeRead = Schemas['AlarmTypeRead'];
export type AlarmStatistics = Schemas['AlarmStatistics'];
export type AlarmStatQuery = Schemas['AlarmStatQuery'];
export type ProcessResult = Schemas['ProcessResult'];

/** notice_type 3 is an offline record; 2 an alarm. The dialog asks for both. */
export const NOTICE_TYPE_ALARM = 2;
export const NOTICE_TYPE_OFFLINE = 3;
export const REQUESTED_NOTICE_TYPES = [NOTICE_TYPE_ALARM, NOTICE_TYPE_OFFLINE];
