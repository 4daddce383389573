import type { DeviceRead, TreeNode } from '@/api/schema';
import {
  buildScopeTree,
  filterScopeTree,
  nextChecked,
  parseScopeKey,
  projectsToLoad,
  scopeKey,
  scopeOfSelection,
} from './scopeTree';

function treeNode(fields: Partial<TreeNode> & Pick<TreeNode, 'type' | 'sysno' | 'name'>): TreeNode {
  return {
    key: `${fields.type}-${fields.sysno}`,
    project_sysno: 1,
    device_count: 0,
    online_device_count: 0,
    list_child: [],
    can_control: true,
    ...fields,
  };
}

function device(sysno: number, name: string, building_sysno: number | null): DeviceRead {
  return {
    sysno,
    name,
    building_sysno,
    building_name: null,
    create_time: null,
    device_id: String(sysno),
    gateway_name: '配电箱',
    gateway_online: 1,
    gateway_sn: 'GW-1',
    gateway_sysno: 7,
    kind: 'breaker',
    last_report_time: null,
    leakage_limit: null,
    model: null,
    online: 1,
    over_current: null,
    over_voltage: null,
    phases: 1,
    power_limit: null,
    project_name: '阳光实验学校',
    project_sysno: 1,
    rated_current: null,
    switch_state: 1,
    temperature_limit: null,
    under_voltage: null,
  };
}

const PROJECTS: TreeNode[] = [
  treeNode({
    type: 'project',
    sysno: 1,
    name: '阳光实验学校',
    list_child: [
      treeNode({ type: 'building', sysno: 3, name: '1号宿舍楼' }),
      treeNode({ type: 'gateway', sysno: 9, name: '散装网关' }),
    ],
  }),
  treeNode({ type: 'project', sysno: 2, name: '科创园办公楼', project_sysno: 2 }),
];

describe('the energy scope tree', () => {
  it('hangs devices under their building, and devices without a known building under the project', () => {
    const tree = buildScopeTree(PROJECTS, (p) => (p === 1 ? [device(11, '总进线', 3), device(12, '水泵', null)] : undefined));
    expect(tree.map((n) => n.key)).toEqual(['p-1', 'p-2']);
    expect(tree[0].children.map((n) => n.key)).toEqual(['b-1-3', 'd-1-12']);
    expect(tree[0].children[0].children.map((n) => n.name)).toEqual(['总进线']);
    expect(tree[0].pending).toBe(false);
    expect(tree[1].pending).toBe(true);
  });

  it('reads keys back, refusing malformed ones', () => {
    expect(parseScopeKey(scopeKey.device(2, 40))).toEqual({ kind: 'device', project: 2, sysno: 40 });
    expect(parseScopeKey('p-5')).toEqual({ kind: 'project', project: 5, sysno: 5 });
    expect(parseScopeKey('b-5')).toBeNull();
    expect(parseScopeKey('p-5-1')).toBeNull();
    expect(parseScopeKey('gateway-1')).toBeNull();
  });

  it('turns the clicked node or the checked devices into the API scope', () => {
    expect(scopeOfSelection('p-1', [])).toEqual({ project_sysno: 1 });
    expect(scopeOfSelection('b-1-3', [])).toEqual({ project_sysno: 1, building_sysno: 3 });
    expect(scopeOfSelection('d-2-40', [])).toEqual({ project_sysno: 2, device_sysnos: [40] });
    expect(scopeOfSelection('p-1', ['d-1-12', 'd-1-11', 'b-1-3'])).toEqual({ project_sysno: 1, device_sysnos: [11, 12] });
    expect(scopeOfSelection(null, [])).toBeNull();
  });

  it('keeps checked devices within the project of the one checked last', () => {
    expect(nextChecked(['d-1-11'], ['d-1-11', 'd-1-12'])).toEqual(['d-1-11', 'd-1-12']);
    expect(nextChecked(['d-1-11', 'd-1-12'], ['d-1-11', 'd-1-12', 'd-2-40'])).toEqual(['d-2-40']);
    expect(nextChecked(['d-1-11', 'd-1-12'], ['d-1-12'])).toEqual(['d-1-12']);
    expect(nextChecked([], ['b-1-3', 'p-1'])).toEqual([]);
  });

  it('filters by name and keeps the ancestors of a hit', () => {
    const tree = buildScopeTree(PROJECTS, () => [device(11, '总进线', 3), device(12, '水泵', null)]);
    const hit = filterScopeTree(tree, '总进');
    expect(hit).toHaveLength(2);
    expect(hit[0].children).toHaveLength(1);
    expect(hit[0].children[0].children.map((n) => n.name)).toEqual(['总进线']);
    expect(filterScopeTree(tree, '科创')[0].children.length).toBeGreaterThan(0);
  });

  it('loads the devices of expanded projects and of the project in scope', () => {
    expect(projectsToLoad(['p-2', 'b-2-5'], 'd-1-11')).toEqual([1, 2]);
    expect(projectsToLoad([], null)).toEqual([]);
  });
});
