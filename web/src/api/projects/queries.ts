import { useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http, queryKey, useRefreshingMutation, type Page } from '@/api/core';
import type {
  BuildingCreate,
  BuildingUpdate,
  ProjectCreate,
  ProjectOption,
  ProjectQuery,
  ProjectRead,
  ProjectUpdate,
} from '@/api/schema';

export const projectKeys = {
  all: queryKey('projects'),
  list: (query: ProjectQuery) => queryKey(...projectKeys.all, 'list', query),
  options: () => queryKey(...projectKeys.all, 'options'),
  tree: () => queryKey(...projectKeys.all, 'tree'),
  dashboard: () => queryKey(...projectKeys.all, 'dashboard'),
  single: (sysno: number) => queryKey(...projectKeys.all, 'single', sysno),
};

export const projectApi = {
  list: (query: ProjectQuery): Promise<Page<ProjectRead>> => http.post('/api/CustomerProject/GetProjectList', query),
  exportList: (query: ProjectQuery) => http.download('/api/CustomerProject/ExportProjectList', query),
  options: () => http.post('/api/CustomerProject/GetFilterProjectList', {}),
  tree: () => http.post('/api/CustomerProject/GetProjectAndBuildingGatewayList', {}),
  dashboard: () => http.post('/api/CustomerProject/GetProjectListDashboard', {}),
  single: (sysno: number) => http.get('/api/CustomerProject/GetSingleProject', { params: { sysno } }),
  add: (body: ProjectCreate) => http.post('/api/CustomerProject/AddProject', body),
  update: (body: ProjectUpdate) => http.put('/api/CustomerProject/UpdateProject', body),
  remove: (sysno: number) => http.delete('/api/CustomerProject/DeleteProject', { params: { sysno } }),
  addBuilding: (body: BuildingCreate) => http.post('/api/CustomerProject/AddBuilding', body),
  updateBuilding: (body: BuildingUpdate) => http.put('/api/CustomerProject/UpdateBuilding', body),
  removeBuilding: (sysno: number) => http.delete('/api/CustomerProject/DeleteBuilding', { params: { sysno } }),
};

export function useProjectList(query: ProjectQuery) {
  return useQuery({ queryKey: projectKeys.list(query), queryFn: () => projectApi.list(query), placeholderData: keepPreviousData });
}

/** Every project as `{sysno, name}`, for filters and pickers. */
export function useProjectOptions() {
  return useQuery({ queryKey: projectKeys.options(), queryFn: projectApi.options, staleTime: 30_000 });
}

/**
 * Whether the customer may control a project (switch its devices, unlock a trip, process its alarms),
 * from the projects' `can_control`: false only for a project listed as view-only (a share 仅查看).
 * A project not (yet) listed counts as controllable, so owners see no flicker while the list loads;
 * the server refuses a view-only sharee's command in any case.
 */
export function controlChecker(options: readonly Pick<ProjectOption, 'sysno' | 'can_control'>[] | undefined) {
  const viewOnly = new Set((options ?? []).filter((o) => !o.can_control).map((o) => o.sysno));
  return (projectSysno: number | null | undefined): boolean => projectSysno == null || !viewOnly.has(projectSysno);
}

/** `controlChecker` over the project options (the one way the client decides who may control what). */
export function useCanControl() {
  const { data } = useProjectOptions();
  return useMemo(() => controlChecker(data), [data]);
}

/** The project → building → gateway tree with online counts, refreshed every `refetchInterval` ms. */
export function useProjectTree(refetchInterval: number | false = false) {
  return useQuery({ queryKey: projectKeys.tree(), queryFn: projectApi.tree, refetchInterval });
}

/** One project with its buildings; `null` asks for nothing. */
export function useProject(sysno: number | null | undefined) {
  return useQuery({
    queryKey: projectKeys.single(sysno ?? 0),
    queryFn: () => projectApi.single(sysno ?? 0),
    enabled: typeof sysno === 'number',
  });
}

export function useProjectDashboard(refetchInterval: number | false = false) {
  return useQuery({ queryKey: projectKeys.dashboard(), queryFn: projectApi.dashboard, refetchInterval });
}

/** A mutation that refreshes every project query (lists, options, tree) when it succeeds. */
function useProjectMutation<V, R>(call: (vars: V) => Promise<R>) {
  return useRefreshingMutation(call, [projectKeys.all]);
}

export const useSaveProject = () =>
  useProjectMutation((body: ProjectCreate & { sysno?: number }) =>
    body.sysno ? projectApi.update({ ...body, sysno: body.sysno }) : projectApi.add(body),
  );
export const useDeleteProject = () => useProjectMutation(projectApi.remove);
export const useSaveBuilding = () =>
  useProjectMutation((body: { sysno?: number; project_sysno: number; name: string; remark?: string | null }) =>
    body.sysno
      ? projectApi.updateBuilding({ sysno: body.sysno, name: body.name, remark: body.remark })
      : projectApi.addBuilding({ project_sysno: body.project_sysno, name: body.name, remark: body.remark }),
  );
export const useDeleteBuilding = () => useProjectMutation(projectApi.removeBuilding);
