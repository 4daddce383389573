import { useState } from 'react';
import { Button, Form, Input, Select, Space, Tabs } from 'antd';
import { SendOutlined, ShareAltOutlined } from '@ant-design/icons';
import { ListTable } from '@/components/ListTable';
import { FilterActions } from '@/components/FilterActions';
import { FilterForm } from '@/components/FilterForm';
import { useMessage } from '@/components/Feedback';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useAppStore } from '@/store/app';
import { shareApi, useShareAction, useShareList, useTransferList } from '@/api/shares/queries';
import type { ShareQuery, ShareRead, TransferQuery, TransferRead } from '@/api/schema';
import { logs, shares } from '@/locales/zh-CN';
import { shareColumns, transferColumns } from './columns';
import { ShareModal } from './components/ShareModal';
import { TransferModal } from './components/TransferModal';

type ShareFilters = Pick<ShareQuery, 'direction' | 'state' | 'keyword'>;
type TransferFilters = Pick<TransferQuery, 'direction' | 'state' | 'keyword'>;

const SHARE_STATES = ['pending', 'accepted', 'declined', 'revoked', 'left', 'ended', 'expired'] as const;
const SHARE_STATE_NAMES = ['待接受', '已生效', '已拒绝', '已撤销', '已退出', '已结束', '已过期'];
const TRANSFER_STATES = ['pending', 'accepted', 'declined', 'cancelled', 'expired'] as const;
const TRANSFER_STATE_NAMES = ['待接收', '已转移', '已拒绝', '已取消', '已过期'];

function SharesTab({ mobile }: { mobile: boolean }) {
  const [form] = Form.useForm<ShareFilters>();
  const message = useMessage();
  const paged = usePagedQuery<ShareFilters>({ showTotal: logs.total });
  const list = useShareList({ ...paged.page, ...paged.order, ...paged.filters, keyword: paged.filters.keyword?.trim() || null });
  const calls = { accept: shareApi.accept, decline: shareApi.decline, revoke: shareApi.revoke, leave: shareApi.leave };
  const action = useShareAction(({ kind, sysno }: { kind: keyof typeof calls; sysno: number }) => calls[kind](sysno));
  const columns = shareColumns({
    mobile,
    act: (kind, share: ShareRead) =>
      action
        .mutateAsync({ kind, sysno: share.sysno })
        .then(() => message.success(shares.done))
        .catch(() => undefined),
  });
  return (
    <>
      <FilterForm<ShareFilters> form={form} onFinish={paged.search} name="share-filters">
        <Form.Item name="direction" label={shares.direction}>
          <Select allowClear placeholder={shares.any} style={{ width: 130 }} options={[{ value: 'given', label: shares.given }, { value: 'received', label: shares.received }]} />
        </Form.Item>
        <Form.Item name="state" label={shares.state}>
          <Select allowClear placeholder={shares.any} style={{ width: 120 }} options={SHARE_STATES.map((s, i) => ({ value: s, label: SHARE_STATE_NAMES[i] }))} />
        </Form.Item>
        <Form.Item name="keyword" label={shares.keyword}>
          <Input allowClear maxLength={64} placeholder={shares.keywordPlaceholder} style={{ width: 200 }} />
        </Form.Item>
        <FilterActions item onReset={() => paged.search({})} />
      </FilterForm>
      <ListTable<ShareRead> tableId="share-list" rowKey="sysno" columns={columns} {...paged.tableProps(list)} />
    </>
  );
}

function TransfersTab({ mobile }: { mobile: boolean }) {
  const [form] = Form.useForm<TransferFilters>();
  const message = useMessage();
  const paged = usePagedQuery<TransferFilters>({ showTotal: logs.total });
  const list = useTransferList({ ...paged.page, ...paged.order, ...paged.filters, keyword: paged.filters.keyword?.trim() || null });
  const calls = { accept: shareApi.acceptTransfer, decline: shareApi.declineTransfer, cancel: shareApi.cancelTransfer };
  const action = useShareAction(({ kind, sysno }: { kind: keyof typeof calls; sysno: number }) => calls[kind](sysno));
  const columns = transferColumns({
    mobile,
    act: (kind, transfer: TransferRead) =>
      action
        .mutateAsync({ kind, sysno: transfer.sysno })
        .then(() => message.success(shares.done))
        .catch(() => undefined),
  });
  return (
    <>
      <FilterForm<TransferFilters> form={form} onFinish={paged.search} name="transfer-filters">
        <Form.Item name="direction" label={shares.direction}>
          <Select allowClear placeholder={shares.any} style={{ width: 110 }} options={[{ value: 'out', label: shares.out }, { value: 'in', label: shares.in }]} />
        </Form.Item>
        <Form.Item name="state" label={shares.state}>
          <Select allowClear placeholder={shares.any} style={{ width: 120 }} options={TRANSFER_STATES.map((s, i) => ({ value: s, label: TRANSFER_STATE_NAMES[i] }))} />
        </Form.Item>
        <Form.Item name="keyword" label={shares.keyword}>
          <Input allowClear maxLength={64} placeholder={shares.keywordPlaceholder} style={{ width: 200 }} />
        </Form.Item>
        <FilterActions item onReset={() => paged.search({})} />
      </FilterForm>
      <ListTable<TransferRead> tableId="transfer-list" rowKey="sysno" columns={columns} {...paged.tableProps(list)} />
    </>
  );
}

/** 共享管理: shares given and received, and project transfers in and out. */
export default function ShareListPage() {
  const mobile = useAppStore((s) => s.device === 'mobile');
  const [modal, setModal] = useState<'share' | 'transfer' | null>(null);
  return (
    <>
      <Tabs
        destroyOnHidden
        tabBarExtraContent={
          <Space>
            <Button icon={<SendOutlined />} onClick={() => setModal('transfer')}>
              {shares.transfer}
            </Button>
            <Button type="primary" icon={<ShareAltOutlined />} onClick={() => setModal('share')}>
              {shares.add}
            </Button>
          </Space>
        }
        items={[
          { key: 'shares', label: shares.tabShares, children: <SharesTab mobile={mobile} /> },
          { key: 'transfers', label: shares.tabTransfers, children: <TransfersTab mobile={mobile} /> },
        ]}
      />
      <ShareModal open={modal === 'share'} onClose={() => setModal(null)} />
      <TransferModal open={modal === 'transfer'} onClose={() => setModal(null)} />
    </>
  );
}
