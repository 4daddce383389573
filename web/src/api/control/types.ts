import type { CommandSend, GroupSwitch } from '@/api/schema';

export type {
  CommandQuery,
  CommandRead,
  DeviceBrief,
  GroupCreate,
  GroupQuery,
  GroupRead,
  GroupUpdate,
  RunQuery,
  RunRead,
  TaskCreate,
  TaskQuery,
  TaskRead,
  TaskUpdate,
} from '@/api/schema';

export type CommandAction = CommandSend['action'];
export type SwitchAction = GroupSwitch['action'];
