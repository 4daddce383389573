export type {
  NotificationRead,
  NotificationUpdate,
  NotificationWrite,
  RechargeQuery,
  RechargeRead,
  TemplatePreview,
  TemplateRead,
  UsageQuery,
  UsageRead,
} from '@/api/schema';
