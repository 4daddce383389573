import { Badge, Button, Popconfirm, Space, Tooltip, Typography } from 'antd';
import type { ListColumn } from '@/components/ListTable';
import type { GatewayRead } from '@/api/schema';
import { gateways, monitoring } from '@/locales/zh-CN';
import { EMPTY, formatAgo, isOnline } from '@/utils/format';

interface Actions {
  /** On a narrow screen no column is pinned, so the table scrolls as a whole. */
  mobile: boolean;
  onEdit: (gateway: GatewayRead) => void;
  onMove: (gateway: GatewayRead) => void;
  onResetSecret: (gateway: GatewayRead) => void;
  onRefusals: (gateway: GatewayRead) => void;
  onDelete: (gateway: GatewayRead) => void;
}

export function gatewayColumns({ mobile, onEdit, onMove, onResetSecret, onRefusals, onDelete }: Actions): ListColumn<GatewayRead>[] {
  return [
    { title: gateways.name, dataIndex: 'name', key: 'name', width: 150, ellipsis: true, sorter: true, keep: true, fixed: mobile ? undefined : 'left' },
    { title: gateways.sn, dataIndex: 'sn', key: 'sn', width: 150, sorter: true, rank: 3 },
    {
      title: gateways.project,
      key: 'project',
      width: 160,
      rank: 4,
      ellipsis: true,
      render: (_, g) => (g.building_name ? `${g.project_name} / ${g.building_name}` : g.project_name),
    },
    {
      title: gateways.online,
      dataIndex: 'online',
      key: 'online',
      width: 110,
      keep: 'wide',
      rank: 1,
      sorter: true,
      render: (online: number) => (
        <Badge status={isOnline(online) ? 'success' : 'default'} text={isOnline(online) ? monitoring.online : monitoring.offline} />
      ),
    },
    {
      title: gateways.lastSeen,
      dataIndex: 'last_seen',
      key: 'last_seen',
      width: 120,
      rank: 7,
      sorter: true,
      render: (time: string | null) =>
        time ? (
          <Tooltip title={time}>
            <span data-testid="last-seen">{formatAgo(time)}</span>
          </Tooltip>
        ) : (
          <Typography.Text type="secondary">{monitoring.never}</Typography.Text>
        ),
    },
    {
      title: gateways.devices,
      key: 'devices',
      width: 110,
      rank: 5,
      render: (_, g) => `${g.online_device_count}/${g.device_count}`,
    },
    { title: gateways.firmware, dataIndex: 'firmware', key: 'firmware', width: 90, rank: 6, render: (v: string | null) => v ?? EMPTY },
    {
      title: gateways.actions,
      key: 'actions',
      // Two rows of links rather than one wide column: the width goes to the gateway's figures.
      width: 200,
      keep: 'wide',
      rank: 2,
      fixed: mobile ? undefined : 'right',
      render: (_, gateway) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => onEdit(gateway)}>
            {gateways.editShort}
          </Button>
          <Button type="link" size="small" onClick={() => onMove(gateway)}>
            {gateways.move}
          </Button>
          <Button type="link" size="small" onClick={() => onRefusals(gateway)}>
            {gateways.refusals}
          </Button>
          <Popconfirm title={gateways.resetConfirm(gateway.name)} onConfirm={() => onResetSecret(gateway)}>
            <Button type="link" size="small">
              {gateways.resetSecret}
            </Button>
          </Popconfirm>
          <Popconfirm title={gateways.deleteConfirm(gateway.name)} onConfirm={() => onDelete(gateway)} okButtonProps={{ danger: true }}>
            <Button type="link" size="small" danger>
              {gateways.delete}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
}
