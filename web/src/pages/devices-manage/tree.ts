import type { TreeNode } from '@/api/schema';

/** What the device list is narrowed to by the chosen tree node. */
export interface Scope {
  project_sysno?: number;
  building_sysno?: number;
  gateway_sysno?: number;
}

export function scopeOf(node: Pick<TreeNode, 'type' | 'sysno'> | undefined): Scope {
  if (!node) return {};
  if (node.type === 'project') return { project_sysno: node.sysno };
  if (node.type === 'building') return { building_sysno: node.sysno };
  return { gateway_sysno: node.sysno };
}

/**
 * The scope of a tree key (`project-1`, `building-3`, `gateway-7`), read from the key itself so the
 * list does not wait for the tree; anything else means every device.
 */
export function scopeOfKey(key: string): Scope {
  const match = /^(project|building|gateway)-(\d+)$/.exec(key);
  if (!match) return {};
  return scopeOf({ type: match[1] as TreeNode['type'], sysno: Number(match[2]) });
}

/**
 * The tree pruned to the nodes whose name or serial number contains `text` (case-insensitive),
 * with their ancestors; a matching node keeps all its children.
 */
export function filterTree(nodes: TreeNode[], text: string): TreeNode[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return nodes;
  const out: TreeNode[] = [];
  for (const node of nodes) {
    const hit = node.name.toLowerCase().includes(needle) || (node.sn ?? '').toLowerCase().includes(needle);
    if (hit) {
      out.push(node);
      continue;
    }
    const children = filterTree(node.list_child, needle);
    if (children.length > 0) out.push({ ...node, list_child: children });
  }
  return out;
}

/** Keys of every node that has children, so a filtered tree opens all the way down. */
export function parentKeys(nodes: TreeNode[]): string[] {
  return nodes.flatMap((node) => (node.list_child.length > 0 ? [node.key, ...parentKeys(node.list_child)] : []));
}
