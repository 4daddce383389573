export type { DeviceQuery, DeviceRead, DeviceTrend, DeviceUpdate, TrendSeries } from '@/api/schema';
