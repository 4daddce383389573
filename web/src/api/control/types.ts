import type { components } from '@/api/schema';

type Schemas = components['schemas'];

export type CommandRead = Schemas['CommandRead'];
export type CommandQuery = Schemas['CommandQuery'];
export type CommandOptions = Schemas['CommandOptions'];
export type CommandAction = Schemas['CommandSend']['action'];
export type SwitchAction = Schemas['GroupSwitch']['action'];
export type DeviceBrief = Schemas['DeviceBrief'];
export type DevicePick = Schemas['DevicePick'];
export type TaskRead = Schemas['TaskRead'];
export type TaskQuery = Schemas['TaskQuery'];
export type TaskCreate = Schemas['TaskCreate'];
export type TaskUpdate = Schemas['TaskUpdate'];
export type RunRead = Schemas['RunRead'];
export type RunDetail = Schemas['RunDetail'];
export type RunQuery = Schemas['RunQuery'];
export type GroupRead = Schemas['GroupRead'];
export type GroupQuery = Schemas['GroupQuery'];
export type GroupCreate = Schemas['GroupCreate'];
export type GroupUpdate = Schemas['GroupUpdate'];

export interface Page<T> {
  dataSource: T[];
  totalCount: number;
}
