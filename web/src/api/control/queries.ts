import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, queryKey, type Page } from '@/api/core';
import { deviceKeys } from '@/api/devices/queries';
import type {
  CommandQuery,
  CommandRead,
  GroupCreate,
  GroupQuery,
  GroupRow,
  GroupUpdate,
  RunQuery,
  RunRead,
  TaskCreate,
  TaskQuery,
  TaskRow,
  TaskUpdate,
} from '@/api/schema';
import type { CommandAction, SwitchAction } from './types';

export const controlKeys = {
  all: queryKey('control'),
  commands: (query: CommandQuery) => queryKey(...controlKeys.all, 'commands', query),
  commandOptions: () => queryKey(...controlKeys.all, 'command-options'),
  devices: (keyword: string) => queryKey(...controlKeys.all, 'devices', keyword),
  tasks: (query: TaskQuery) => queryKey(...controlKeys.all, 'tasks', query),
  runs: (query: RunQuery) => queryKey(...controlKeys.all, 'runs', query),
  run: (sysno: number) => queryKey(...controlKeys.all, 'run', sysno),
  groups: (query: GroupQuery) => queryKey(...controlKeys.all, 'groups', query),
  group: (sysno: number) => queryKey(...controlKeys.all, 'group', sysno),
  task: (sysno: number) => queryKey(...controlKeys.all, 'task', sysno),
};

export const controlApi = {
  send: (device_sysno: number, action: CommandAction) =>
    http.post('/api/CustomerControl/SendCommand', { device_sysno, action }),
  devices: (keyword: string) =>
    http.post('/api/CustomerControl/GetControllableDeviceList', { keyword: keyword || null }),
  commands: (query: CommandQuery): Promise<Page<CommandRead>> =>
    http.post('/api/CustomerCommandLog/GetCommandLogList', query),
  exportCommands: (query: CommandQuery) => http.download('/api/CustomerCommandLog/ExportCommandLogList', query),
  commandOptions: () => http.get('/api/CustomerCommandLog/GetCommandOptions'),
  tasks: (query: TaskQuery): Promise<Page<TaskRow>> => http.post('/api/CustomerTimedTask/GetTaskList', query),
  exportTasks: (query: TaskQuery) => http.download('/api/CustomerTimedTask/ExportTaskList', query),
  task: (sysno: number) => http.get('/api/CustomerTimedTask/GetSingleTask', { params: { sysno } }),
  addTask: (body: TaskCreate) => http.post('/api/CustomerTimedTask/AddTask', body),
  updateTask: (body: TaskUpdate) => http.put('/api/CustomerTimedTask/UpdateTask', body),
  enableTask: (sysno: number, enabled: boolean) => http.put('/api/CustomerTimedTask/EnableTask', { sysno, enabled }),
  deleteTask: (sysno: number) => http.delete('/api/CustomerTimedTask/DeleteTask', { params: { sysno } }),
  runs: (query: RunQuery): Promise<Page<RunRead>> => http.post('/api/CustomerTimedTask/GetRunList', query),
  exportRuns: (query: RunQuery) => http.download('/api/CustomerTimedTask/ExportRunList', query),
  runDetail: (sysno: number) => http.get('/api/CustomerTimedTask/GetRunDetail', { params: { sysno } }),
  groups: (query: GroupQuery): Promise<Page<GroupRow>> => http.post('/api/CustomerGroup/GetGroupList', query),
  exportGroups: (query: GroupQuery) => http.download('/api/CustomerGroup/ExportGroupList', query),
  group: (sysno: number) => http.get('/api/CustomerGroup/GetSingleGroup', { params: { sysno } }),
  addGroup: (body: GroupCreate) => http.post('/api/CustomerGroup/AddGroup', body),
  updateGroup: (body: GroupUpdate) => http.put('/api/CustomerGroup/UpdateGroup', body),
  deleteGroup: (sysno: number) => http.delete('/api/CustomerGroup/DeleteGroup', { params: { sysno } }),
  switchGroup: (sysno: number, action: SwitchAction) => http.post('/api/CustomerGroup/SwitchGroup', { sysno, action }),
  runStatus: (sysno: number) => http.get('/api/CustomerGroup/GetRunStatus', { params: { sysno } }),
};

/** The ingest records a confirmed switch within a batch or two; look again once it has. */
const SETTLE_MS = 800;

/** Send one command; on any outcome the devices and the command log are fetched again. */
export function useSendCommand() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ sysno, action }: { sysno: number; action: CommandAction }) => controlApi.send(sysno, action),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: deviceKeys.all });
      void client.invalidateQueries({ queryKey: controlKeys.all });
      setTimeout(() => void client.invalidateQueries({ queryKey: deviceKeys.all }), SETTLE_MS);
    },
  });
}

export function useCommandLog(query: CommandQuery) {
  return useQuery({
    queryKey: controlKeys.commands(query),
    queryFn: () => controlApi.commands(query),
    placeholderData: keepPreviousData,
  });
}

export function useCommandOptions() {
  return useQuery({ queryKey: controlKeys.commandOptions(), queryFn: controlApi.commandOptions, staleTime: Infinity });
}

export function useControllableDevices(keyword: string, enabled = true) {
  return useQuery({
    queryKey: controlKeys.devices(keyword),
    queryFn: () => controlApi.devices(keyword),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useTasks(query: TaskQuery) {
  return useQuery({ queryKey: controlKeys.tasks(query), queryFn: () => controlApi.tasks(query), placeholderData: keepPreviousData });
}

/** One task with its devices (the list carries only their number); none while ``sysno`` is null. */
export function useTask(sysno: number | null) {
  return useQuery({ queryKey: controlKeys.task(sysno ?? 0), queryFn: () => controlApi.task(sysno ?? 0), enabled: sysno !== null });
}

export function useRuns(query: RunQuery, enabled = true) {
  return useQuery({ queryKey: controlKeys.runs(query), queryFn: () => controlApi.runs(query), enabled });
}

export function useRunDetail(sysno: number | null) {
  return useQuery({
    queryKey: controlKeys.run(sysno ?? 0),
    queryFn: () => controlApi.runDetail(sysno ?? 0),
    enabled: sysno !== null,
  });
}

export function useGroups(query: GroupQuery) {
  return useQuery({ queryKey: controlKeys.groups(query), queryFn: () => controlApi.groups(query), placeholderData: keepPreviousData });
}

/** One group with its devices (the list carries only their tallies); none while ``sysno`` is null. */
export function useGroup(sysno: number | null) {
  return useQuery({ queryKey: controlKeys.group(sysno ?? 0), queryFn: () => controlApi.group(sysno ?? 0), enabled: sysno !== null });
}

/** How often a group run is polled while devices are still answering. */
export const RUN_POLL_MS = 500;

/** A group run, polled until every device has answered. */
export function useRunStatus(sysno: number | null) {
  return useQuery({
    queryKey: [...controlKeys.run(sysno ?? 0), 'status'],
    queryFn: () => controlApi.runStatus(sysno ?? 0),
    enabled: sysno !== null,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? RUN_POLL_MS : false),
  });
}

/** Invalidate everything of this domain (after an edit). */
export function useControlRefresh() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: controlKeys.all });
    void client.invalidateQueries({ queryKey: deviceKeys.all });
  };
}
