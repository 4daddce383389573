import { useMemo, useState } from 'react';
import { Badge, Empty, Input, Spin, Tag, Tooltip, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { ApartmentOutlined, BankOutlined, ClusterOutlined } from '@ant-design/icons';
import type { TreeNode } from '@/api/schema';
import { monitoring, shares } from '@/locales/zh-CN';
import { isOnline, onlineLabel } from '@/utils/format';
import { filterTree, parentKeys } from '../tree';
import styles from '../devices.module.css';

export const ALL_KEY = 'all';

const ICONS = { project: <BankOutlined />, building: <ApartmentOutlined /> };

function toDataNode(node: TreeNode): DataNode {
  const title = (
    <span className={styles.treeTitle} data-testid={`tree-${node.key}`}>
      <span className={styles.treeName}>{node.name}</span>
      {node.owner_name && (
        <Tooltip title={shares.sharedBy(node.owner_name)}>
          <Tag color="purple" bordered={false} style={{ marginInlineEnd: 4 }} data-testid={`shared-${node.key}`}>
            {shares.sharedTag}
          </Tag>
        </Tooltip>
      )}
      <Typography.Text type="secondary" className={styles.treeCount}>
        {node.online_device_count}/{node.device_count}
      </Typography.Text>
    </span>
  );
  // A gateway's icon is its online dot.
  const icon =
    node.type === 'gateway' ? (
      <Badge
        status={isOnline(node.online) ? 'success' : 'default'}
        title={onlineLabel(node.online)}
        data-testid={`online-${node.key}`}
        data-online={isOnline(node.online) ? 1 : 0}
      />
    ) : (
      ICONS[node.type]
    );
  return { key: node.key, title, icon, children: node.list_child.map(toDataNode) };
}

interface Props {
  nodes: TreeNode[] | undefined;
  loading: boolean;
  selectedKey: string;
  onSelect: (key: string) => void;
}

/** The project → building → gateway tree with online dots and online/total device counts. */
export function ProjectTree({ nodes, loading, selectedKey, onSelect }: Props) {
  const [text, setText] = useState('');
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const filtered = useMemo(() => filterTree(nodes ?? [], text), [nodes, text]);
  const treeData = useMemo<DataNode[]>(
    () => [{ key: ALL_KEY, title: monitoring.allDevices, icon: <ClusterOutlined />, children: filtered.map(toDataNode) }],
    [filtered],
  );
  // Open everything by default and while searching; afterwards the user's own choice.
  const expandedKeys = text || expanded === null ? [ALL_KEY, ...parentKeys(filtered)] : expanded;

  if (loading && !nodes) return <Spin style={{ display: 'block', margin: '40px auto' }} />;
  return (
    <div data-testid="project-tree">
      <Input.Search allowClear placeholder={monitoring.treeSearch} onChange={(e) => setText(e.target.value)} style={{ marginBottom: 8 }} />
      {nodes && nodes.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={monitoring.emptyTree} />
      ) : (
        <Tree
          className={styles.tree}
          showIcon
          blockNode
          treeData={treeData}
          selectedKeys={[selectedKey]}
          expandedKeys={expandedKeys}
          onExpand={(keys) => setExpanded(keys.map(String))}
          onSelect={(keys) => onSelect(keys.length ? String(keys[0]) : ALL_KEY)}
        />
      )}
    </div>
  );
}
