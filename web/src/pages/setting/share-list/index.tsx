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

interface Option {
  value: string;
  label: string;
}

const SHARE_DIRECTIONS: Option[] = [
  { value: 'given', label: shares.given },
  { value: 'received', label: shares.received },
];
const TRANSFER_DIRECTIONS: Option[] = [
  { value: 'out', label: shares.out },
  { value: 'in', label: shares.in },
];
const options = (values: readonly string[], names: string[]): Option[] => values.map((value, i) => ({ value, label: names[i] }));

/** The filters both tabs share: direction, state and a keyword. */
function Filters<F extends object>(props: { name: string; directions: Option[]; states: Option[]; onSearch: (values: F) => void }) {
  const [form] = Form.useForm<F>();
  return (
    <FilterForm<F> form={form} onFinish={props.onSearch} name={props.name}>
      <Form.Item name="direction" label={shares.direction}>
        <Select allowClear placeholder={shares.any} style={{ width: 130 }} options={props.directions} />
      </Form.Item>
      <Form.Item name="state" label={shares.state}>
        <Select allowClear placeholder={shares.any} style={{ width: 120 }} options={props.states} />
      </Form.Item>
      <Form.Item name="keyword" label={shares.keyword}>
        <Input allowClear maxLength={64} placeholder={shares.keywordPlaceholder} style={{ width: 200 }} />
      </Form.Item>
      <FilterActions item onReset={() => props.onSearch({} as F)} />
    </FilterForm>
  );
}

/** A row action of either list: the call by its kind, then 操作成功 (errors are shown by the client). */
function useRowAction<K extends string>(calls: Record<K, (sysno: number) => Promise<unknown>>) {
  const message = useMessage();
  const action = useShareAction(({ kind, sysno }: { kind: K; sysno: number }) => calls[kind](sysno));
  return (kind: K, row: { sysno: number }) =>
    action
      .mutateAsync({ kind, sysno: row.sysno })
      .then(() => message.success(shares.done))
      .catch(() => undefined);
}

function SharesTab({ mobile }: { mobile: boolean }) {
  const paged = usePagedQuery<ShareFilters>({ showTotal: logs.total });
  const list = useShareList({ ...paged.page, ...paged.order, ...paged.filters, keyword: paged.filters.keyword?.trim() || null });
  const act = useRowAction({ accept: shareApi.accept, decline: shareApi.decline, revoke: shareApi.revoke, leave: shareApi.leave });
  return (
    <>
      <Filters<ShareFilters> name="share-filters" directions={SHARE_DIRECTIONS} states={options(SHARE_STATES, SHARE_STATE_NAMES)} onSearch={paged.search} />
      <ListTable<ShareRead> tableId="share-list" rowKey="sysno" columns={shareColumns({ mobile, act })} {...paged.tableProps(list)} />
    </>
  );
}

function TransfersTab({ mobile }: { mobile: boolean }) {
  const paged = usePagedQuery<TransferFilters>({ showTotal: logs.total });
  const list = useTransferList({ ...paged.page, ...paged.order, ...paged.filters, keyword: paged.filters.keyword?.trim() || null });
  const act = useRowAction({ accept: shareApi.acceptTransfer, decline: shareApi.declineTransfer, cancel: shareApi.cancelTransfer });
  return (
    <>
      <Filters<TransferFilters> name="transfer-filters" directions={TRANSFER_DIRECTIONS} states={options(TRANSFER_STATES, TRANSFER_STATE_NAMES)} onSearch={paged.search} />
      <ListTable<TransferRead> tableId="transfer-list" rowKey="sysno" columns={transferColumns({ mobile, act })} {...paged.tableProps(list)} />
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
