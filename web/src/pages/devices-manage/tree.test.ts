import type { TreeNode } from '@/api/schema';
import { filterTree, parentKeys, scopeOf, scopeOfKey } from './tree';

function node(type: TreeNode['type'], sysno: number, name: string, children: TreeNode[] = [], sn: string | null = null): TreeNode {
  return {
    key: `${type}-${sysno}`,
    sysno,
    name,
    type,
    project_sysno: 1,
    sn,
    online: type === 'gateway' ? 1 : null,
    device_count: 0,
    online_device_count: 0,
    list_child: children,
    can_control: true,
  };
}

const TREE: TreeNode[] = [
  node('project', 1, '阳光实验学校', [
    node('building', 1, '1号宿舍楼', [node('gateway', 1, '1号宿舍楼配电箱', [], 'DEMO-GW-0001')]),
    node('building', 2, '教学楼', [node('gateway', 3, '教学楼配电房', [], 'DEMO-GW-0003')]),
    node('gateway', 9, '门卫室网关', [], 'GATE-9'),
  ]),
  node('project', 2, '科创园办公楼', [node('building', 4, 'B座')]),
];

describe('monitoring tree', () => {
  it('narrows the device list by the chosen node', () => {
    expect(scopeOf(undefined)).toEqual({});
    expect(scopeOf(TREE[1])).toEqual({ project_sysno: 2 });
    expect(scopeOf(TREE[0].list_child[1])).toEqual({ building_sysno: 2 });
    expect(scopeOf(TREE[0].list_child[2])).toEqual({ gateway_sysno: 9 });
  });

  it('reads the scope from a node key without the tree', () => {
    expect(scopeOfKey('project-12')).toEqual({ project_sysno: 12 });
    expect(scopeOfKey('gateway-7')).toEqual({ gateway_sysno: 7 });
    expect(scopeOfKey('all')).toEqual({});
    expect(scopeOfKey('device-1')).toEqual({});
  });

  it('keeps matching nodes with their ancestors when searching', () => {
    const found = filterTree(TREE, '配电房');
    expect(found).toHaveLength(1);
    expect(found[0].list_child.map((n) => n.key)).toEqual(['building-2']);
    expect(found[0].list_child[0].list_child.map((n) => n.key)).toEqual(['gateway-3']);
  });

  it('matches serial numbers case-insensitively and keeps a matching node whole', () => {
    expect(filterTree(TREE, 'gate-9')[0].list_child.map((n) => n.key)).toEqual(['gateway-9']);
    expect(filterTree(TREE, '阳光')[0].list_child).toHaveLength(3);
    expect(filterTree(TREE, '  ')).toBe(TREE);
    expect(filterTree(TREE, 'nothing')).toEqual([]);
  });

  it('lists the nodes to open', () => {
    expect(parentKeys(TREE)).toEqual(['project-1', 'building-1', 'building-2', 'project-2']);
  });
});
