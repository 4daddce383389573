import type { components } from '@/api/schema';

type Schemas = components['schemas'];

export type NotificationRead = Schemas['NotificationRead'];
export type NotificationWrite = Schemas['NotificationWrite'];
export type NotificationUpdate = Schemas['NotificationUpdate'];
export type TemplateRead = Schemas['TemplateRead'];
export type TemplatePreview = Schemas['TemplatePreview'];
export type SmsAccountRead = Schemas['SmsAccountRead'];
export type UsageQuery = Schemas['UsageQuery'];
export type UsageRead = Schemas['UsageRead'];
export type RechargeQuery = Schemas['RechargeQuery'];
export type RechargeRead = Schemas['RechargeRead'];
