import type { DeviceRead, EnergyScope, TreeNode } from '@/api/schema';

export type ScopeKind = 'project' | 'building' | 'device';

/** A node of the 能耗统计 tree: project → building → device (devices without a building hang on the project). */
export interface ScopeNode {
  key: string;
  kind: ScopeKind;
  name: string;
  project: number;
  sysno: number;
  children: ScopeNode[];
  /** A project whose devices have not been fetched yet. */
  pending?: boolean;
}

/** Tree keys carry the project, so a scope is read from a key without the tree. */
export const scopeKey = {
  project: (project: number) => `p-${project}`,
  building: (project: number, building: number) => `b-${project}-${building}`,
  device: (project: number, device: number) => `d-${project}-${device}`,
};

export interface ParsedKey {
  kind: ScopeKind;
  project: number;
  sysno: number;
}

const KINDS: Record<string, ScopeKind> = { p: 'project', b: 'building', d: 'device' };

export function parseScopeKey(key: string): ParsedKey | null {
  const match = /^([pbd])-(\d+)(?:-(\d+))?$/.exec(key);
  if (!match) return null;
  const kind = KINDS[match[1]];
  const project = Number(match[2]);
  if (kind === 'project') return match[3] === undefined ? { kind, project, sysno: project } : null;
  return match[3] === undefined ? null : { kind, project, sysno: Number(match[3]) };
}

/**
 * The tree from the project → building tree and each project's devices (undefined while they load).
 * A device belongs to its gateway's building, as the server counts a building.
 */
export function buildScopeTree(projects: TreeNode[], devicesOf: (project: number) => DeviceRead[] | undefined): ScopeNode[] {
  return projects.map((project) => {
    const devices = devicesOf(project.sysno);
    const buildings = project.list_child.filter((child) => child.type === 'building');
    const known = new Set(buildings.map((b) => b.sysno));
    const deviceNode = (device: DeviceRead): ScopeNode => ({
      key: scopeKey.device(project.sysno, device.sysno),
      kind: 'device',
      name: device.name,
      project: project.sysno,
      sysno: device.sysno,
      children: [],
    });
    const buildingNodes: ScopeNode[] = buildings.map((building) => ({
      key: scopeKey.building(project.sysno, building.sysno),
      kind: 'building',
      name: building.name,
      project: project.sysno,
      sysno: building.sysno,
      children: (devices ?? []).filter((d) => d.building_sysno === building.sysno).map(deviceNode),
    }));
    const loose = (devices ?? []).filter((d) => d.building_sysno === null || !known.has(d.building_sysno)).map(deviceNode);
    return {
      key: scopeKey.project(project.sysno),
      kind: 'project',
      name: project.name,
      project: project.sysno,
      sysno: project.sysno,
      children: [...buildingNodes, ...loose],
      pending: devices === undefined,
    };
  });
}

/** What the chart, ranking and table count: a project, one building, or devices of one project. */
export type ScopeFields = Pick<EnergyScope, 'project_sysno' | 'building_sysno' | 'device_sysnos'>;

/** Checked devices win over the clicked node; nothing chosen gives null. */
export function scopeOfSelection(focus: string | null, checked: string[]): ScopeFields | null {
  const devices = checked.map(parseScopeKey).filter((k): k is ParsedKey => k?.kind === 'device');
  if (devices.length > 0) {
    return { project_sysno: devices[0].project, device_sysnos: devices.map((d) => d.sysno).sort((a, b) => a - b) };
  }
  const node = focus ? parseScopeKey(focus) : null;
  if (!node) return null;
  if (node.kind === 'project') return { project_sysno: node.project };
  if (node.kind === 'building') return { project_sysno: node.project, building_sysno: node.sysno };
  return { project_sysno: node.project, device_sysnos: [node.sysno] };
}

/**
 * The checked devices after a click on a checkbox: devices only, and all of one project (the server
 * counts one project at a time), the project of the device just checked.
 */
export function nextChecked(previous: string[], next: string[]): string[] {
  const devices = next.filter((key) => parseScopeKey(key)?.kind === 'device');
  const added = devices.filter((key) => !previous.includes(key));
  const latest = added.length > 0 ? parseScopeKey(added[added.length - 1]) : null;
  if (!latest) return devices;
  return devices.filter((key) => parseScopeKey(key)?.project === latest.project);
}

/** The tree pruned to nodes whose name contains `text` (case-insensitive), with their ancestors; a hit keeps its children. */
export function filterScopeTree(nodes: ScopeNode[], text: string): ScopeNode[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return nodes;
  return nodes.flatMap((node) => {
    if (node.name.toLowerCase().includes(needle)) return [node];
    const children = filterScopeTree(node.children, needle);
    return children.length > 0 ? [{ ...node, children }] : [];
  });
}

/** Keys of every node with children, so a filtered tree opens all the way down. */
export function branchKeys(nodes: ScopeNode[]): string[] {
  return nodes.flatMap((node) => (node.children.length > 0 ? [node.key, ...branchKeys(node.children)] : []));
}

/** The projects whose devices the tree needs: the expanded ones and the one in scope. */
export function projectsToLoad(expanded: string[], focus: string | null): number[] {
  const keys = focus ? [...expanded, focus] : expanded;
  const projects = keys.map(parseScopeKey).filter((k): k is ParsedKey => k !== null).map((k) => k.project);
  return [...new Set(projects)].sort((a, b) => a - b);
}
