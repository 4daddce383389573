import type { CommandSend, GroupSwitch } from '@/api/schema';

export type CommandAction = CommandSend['action'];
export type SwitchAction = GroupSwitch['action'];
