import { useState } from 'react';
import { Button, Empty, Input, Spin, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { ApartmentOutlined, BankOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useProjectDevices } from '@/api/devices/queries';
import type { TreeNode } from '@/api/schema';
import { energy } from '@/locales/zh-CN';
import { branchKeys, buildScopeTree, filterScopeTree, nextChecked, projectsToLoad, scopeKey, type ScopeNode } from '../scopeTree';
import styles from '../eng.module.css';

const ICONS = { project: <BankOutlined />, building: <ApartmentOutlined />, device: <ThunderboltOutlined /> };

function toDataNode(node: ScopeNode): DataNode {
  const children = node.pending
    ? [{ key: `${node.key}-loading`, title: energy.loadingDevices, selectable: false, checkable: false, disabled: true, isLeaf: true }]
    : node.children.map(toDataNode);
  return {
    key: node.key,
    title: <span data-testid={`scope-${node.key}`}>{node.name}</span>,
    icon: ICONS[node.kind],
    checkable: node.kind === 'device',
    isLeaf: node.kind === 'device',
    children: node.kind === 'device' ? undefined : children,
  };
}

interface Props {
  projects: TreeNode[] | undefined;
  loading: boolean;
  focus: string | null;
  checked: string[];
  onFocus: (key: string) => void;
  onCheck: (keys: string[]) => void;
}

/** Projects → buildings → devices: click one to count it, or tick devices of one project to count them together. */
export function ScopeTree({ projects, loading, focus, checked, onFocus, onCheck }: Props) {
  const [text, setText] = useState('');
  const [expanded, setExpanded] = useState<string[] | null>(null);
  // Until the user opens or closes a node: the project in scope and its buildings are open.
  const shown = expanded ?? (focus ? [scopeKey.project(Number(focus.split('-')[1]))] : []);
  const wanted = projectsToLoad(shown, focus);
  const devices = useProjectDevices(wanted);
  // A few hundred nodes at most: rebuilt on every render rather than memoised on a changing set of queries.
  const nodes = buildScopeTree(projects ?? [], (project) => devices.get(project));
  const filtered = filterScopeTree(nodes, text);
  const treeData = filtered.map(toDataNode);
  const defaultOpen = shown.flatMap((key) => [key, ...branchKeys(nodes.filter((n) => n.key === key))]);
  const expandedKeys = text ? branchKeys(filtered) : expanded ?? defaultOpen;

  if (loading && !projects) return <Spin style={{ display: 'block', margin: '40px auto' }} />;
  return (
    <div data-testid="scope-tree">
      <Input.Search allowClear placeholder={energy.treeSearch} onChange={(e) => setText(e.target.value)} style={{ marginBottom: 8 }} />
      {checked.length > 0 ? (
        <div className={styles.checked}>
          <Typography.Text type="secondary">{energy.checkedDevices(checked.length)}</Typography.Text>
          <Button size="small" type="link" onClick={() => onCheck([])}>
            {energy.clearChecked}
          </Button>
        </div>
      ) : (
        <Typography.Text type="secondary" className={styles.checked}>
          {energy.checkHint}
        </Typography.Text>
      )}
      {projects && projects.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={energy.emptyTree} />
      ) : (
        <Tree
          className={styles.tree}
          showIcon
          blockNode
          checkable
          checkStrictly
          treeData={treeData}
          selectedKeys={focus ? [focus] : []}
          checkedKeys={checked}
          expandedKeys={expandedKeys}
          onExpand={(keys) => setExpanded(keys.map(String))}
          onSelect={(keys) => keys.length > 0 && onFocus(String(keys[0]))}
          onCheck={(keys) => onCheck(nextChecked(checked, (Array.isArray(keys) ? keys : keys.checked).map(String)))}
        />
      )}
    </div>
  );
}
