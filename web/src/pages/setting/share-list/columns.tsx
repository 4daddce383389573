import { Button, Popconfirm, Space, Tag, Typography } from 'antd';
import type { ListColumn } from '@/components/ListTable';
import type { ShareRead, TransferRead } from '@/api/schema';
import { shares } from '@/locales/zh-CN';

const STATE_COLOURS: Record<string, string> = {
  pending: 'processing',
  accepted: 'success',
  declined: 'default',
  revoked: 'default',
  left: 'default',
  ended: 'default',
  expired: 'warning',
  cancelled: 'default',
};

const state = (row: { state: string; state_name: string }) => <Tag color={STATE_COLOURS[row.state]}>{row.state_name}</Tag>;
const who = (name: string, mobile: string) => (
  <span>
    {name} <Typography.Text type="secondary">{mobile}</Typography.Text>
  </span>
);

export interface ShareActions {
  mobile: boolean;
  act: (kind: 'accept' | 'decline' | 'revoke' | 'leave', share: ShareRead) => void;
}

export function shareColumns({ mobile, act }: ShareActions): ListColumn<ShareRead>[] {
  return [
    {
      title: shares.project,
      key: 'project',
      width: 200,
      keep: true,
      render: (_, s) => (
        <Space size={4}>
          {s.project_name}
          <Tag color={s.direction === 'given' ? 'blue' : 'purple'}>{s.direction === 'given' ? shares.given : shares.received}</Tag>
        </Space>
      ),
    },
    { title: shares.owner, key: 'owner', width: 180, rank: 3, render: (_, s) => who(s.owner_name, s.owner_mobile) },
    { title: shares.grantee, key: 'grantee', width: 180, rank: 2, render: (_, s) => who(s.grantee_name, s.grantee_mobile) },
    { title: shares.permission, dataIndex: 'permission_name', key: 'permission', width: 110, rank: 4 },
    {
      title: shares.buildings,
      key: 'buildings',
      width: 160,
      rank: 6,
      render: (_, s) => (s.building_names.length ? s.building_names.join('、') : shares.wholeProject),
    },
    { title: shares.expireTime, key: 'expire', width: 170, rank: 5, render: (_, s) => s.expire_time ?? shares.forever },
    { title: shares.state, key: 'state', width: 100, keep: true, render: (_, s) => state(s) },
    { title: shares.createTime, dataIndex: 'create_time', key: 'create_time', width: 170, rank: 7 },
    {
      title: shares.actions,
      key: 'actions',
      width: 130,
      keep: 'wide',
      rank: 1,
      fixed: mobile ? undefined : 'right',
      render: (_, s) => (
        <Space size={0}>
          {s.direction === 'received' && s.state === 'pending' && (
            <>
              <Button type="link" size="small" onClick={() => act('accept', s)}>
                {shares.accept}
              </Button>
              <Button type="link" size="small" danger onClick={() => act('decline', s)}>
                {shares.decline}
              </Button>
            </>
          )}
          {s.direction === 'given' && (s.state === 'pending' || s.state === 'accepted') && (
            <Popconfirm title={shares.revokeConfirm(s.grantee_name)} onConfirm={() => act('revoke', s)}>
              <Button type="link" size="small" danger>
                {shares.revoke}
              </Button>
            </Popconfirm>
          )}
          {s.direction === 'received' && s.state === 'accepted' && (
            <Popconfirm title={shares.leaveConfirm(s.project_name)} onConfirm={() => act('leave', s)}>
              <Button type="link" size="small" danger>
                {shares.leave}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
}

export interface TransferActions {
  mobile: boolean;
  act: (kind: 'accept' | 'decline' | 'cancel', transfer: TransferRead) => void;
}

export function transferColumns({ mobile, act }: TransferActions): ListColumn<TransferRead>[] {
  return [
    {
      title: shares.project,
      key: 'project',
      width: 200,
      keep: true,
      render: (_, t) => (
        <Space size={4}>
          {t.project_name}
          <Tag color={t.direction === 'out' ? 'blue' : 'purple'}>{t.direction === 'out' ? shares.out : shares.in}</Tag>
        </Space>
      ),
    },
    { title: shares.from, key: 'from', width: 180, rank: 2, render: (_, t) => who(t.from_name, t.from_mobile) },
    { title: shares.to, key: 'to', width: 180, rank: 3, render: (_, t) => who(t.to_name, t.to_mobile) },
    { title: shares.keepShares, key: 'keep', width: 110, rank: 5, render: (_, t) => (t.keep_shares ? '是' : '否') },
    { title: shares.state, key: 'state', width: 100, keep: true, render: (_, t) => state(t) },
    { title: shares.transferExpire, dataIndex: 'expire_time', key: 'expire_time', width: 170, rank: 4 },
    { title: shares.createTime, dataIndex: 'create_time', key: 'create_time', width: 170, rank: 6 },
    {
      title: shares.actions,
      key: 'actions',
      width: 130,
      keep: 'wide',
      rank: 1,
      fixed: mobile ? undefined : 'right',
      render: (_, t) =>
        t.state !== 'pending' ? null : t.direction === 'in' ? (
          <Space size={0}>
            <Popconfirm
              title={shares.acceptTransferConfirm(t.project_name)}
              description={<div style={{ maxWidth: 320 }}>{shares.acceptTransferSecrets}</div>}
              onConfirm={() => act('accept', t)}
            >
              <Button type="link" size="small">
                {shares.acceptTransfer}
              </Button>
            </Popconfirm>
            <Button type="link" size="small" danger onClick={() => act('decline', t)}>
              {shares.decline}
            </Button>
          </Space>
        ) : (
          <Button type="link" size="small" danger onClick={() => act('cancel', t)}>
            {shares.cancelTransfer}
          </Button>
        ),
    },
  ];
}
