import type { components } from '@/api/schema';

type Schemas = components['schemas'];

export type DeviceRead = Schemas['DeviceRead'];
export type DeviceQuery = Schemas['DeviceQuery'];
export type DeviceUpdate = Schemas['DeviceUpdate'];
export type DeviceTrend = Schemas['DeviceTrend'];
export type TrendSeries = Schemas['TrendSeries'];
