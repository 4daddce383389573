import { Button, Space, Tag, Typography } from 'antd';
import type { ListColumn } from '@/components/ListTable';
import type { AccountRead, BillRead, LedgerRead, OrderRead } from '@/api/schema';
import { billing as t } from '@/locales/zh-CN';
import { formatYuan, powerColor } from './billing';

export interface AccountActions {
  onRecharge: (account: AccountRead) => void;
  onDetail: (account: AccountRead) => void;
  onEdit: (account: AccountRead) => void;
  onOrder: (account: AccountRead) => void;
}

/** The balance, red at or below the account's warning level. */
export function Balance({ account }: { account: Pick<AccountRead, 'balance' | 'low'> }) {
  return (
    <Typography.Text type={account.low ? 'danger' : undefined} strong data-testid="account-balance">
      ¥{formatYuan(account.balance)}
    </Typography.Text>
  );
}

export function PowerTag({
  account,
}: {
  account: Pick<AccountRead, 'power' | 'power_name' | 'keep_power' | 'switch_state'>;
}) {
  return (
    <Space size={4} wrap>
      <Tag color={powerColor(account.power)}>{account.power_name}</Tag>
      {account.power === 'on' && account.switch_state === 0 && <Tag>{t.switchedOff}</Tag>}
      {account.keep_power && <Tag color="blue">{t.keepPower}</Tag>}
    </Space>
  );
}

export function accountColumns(actions: AccountActions): ListColumn<AccountRead>[] {
  return [
    {
      title: t.holder,
      dataIndex: 'holder_name',
      key: 'holder',
      width: 120,
      keep: true,
      ellipsis: true,
      render: (name: string, row) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => actions.onDetail(row)} data-testid="holder-name">
          {name}
        </Button>
      ),
    },
    { title: t.holderMobile, dataIndex: 'holder_mobile', key: 'mobile', width: 120, rank: 6, render: (m: string | null) => m ?? t.none },
    {
      title: t.device,
      dataIndex: 'device_name',
      key: 'device',
      width: 180,
      rank: 3,
      ellipsis: true,
      render: (name: string, row) => `${name}（${row.gateway_sn} #${row.device_id}）`,
    },
    { title: t.project, dataIndex: 'project_name', key: 'project', width: 130, rank: 5, ellipsis: true },
    { title: t.chargeType, dataIndex: 'charge_type_name', key: 'charge_type', width: 120, rank: 4 },
    {
      title: t.balance,
      dataIndex: 'balance',
      key: 'balance',
      width: 120,
      align: 'right',
      keep: true,
      sorter: true,
      render: (_: number, row) => <Balance account={row} />,
    },
    { title: t.power, dataIndex: 'power_name', key: 'power', width: 130, keep: 'wide', render: (_: string, row) => <PowerTag account={row} /> },
    { title: t.lastRecharge, dataIndex: 'last_recharge_time', key: 'last_recharge', width: 170, rank: 7, render: (v: string | null) => v ?? t.none },
    {
      title: t.state,
      dataIndex: 'state_name',
      key: 'state',
      width: 90,
      rank: 8,
      render: (name: string, row) => <Tag color={row.state === 1 ? 'green' : 'default'}>{name}</Tag>,
    },
    {
      title: t.actionsColumn,
      key: 'actions',
      width: 230,
      keep: 'wide',
      rank: 1,
      fixed: 'right',
      render: (_, row) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => actions.onRecharge(row)} disabled={row.state !== 1} data-testid="row-recharge">
            {t.recharge}
          </Button>
          <Button type="link" size="small" onClick={() => actions.onDetail(row)} data-testid="row-detail">
            {t.detail}
          </Button>
          <Button type="link" size="small" onClick={() => actions.onEdit(row)} disabled={row.state !== 1} data-testid="row-edit">
            {t.edit}
          </Button>
          <Button type="link" size="small" onClick={() => actions.onOrder(row)} disabled={row.state !== 1} data-testid="row-order">
            {t.order}
          </Button>
        </Space>
      ),
    },
  ];
}

/** The ledger's columns; the recharge records name the account and have no kWh (only charges do). */
export function ledgerColumns(withAccount: boolean): ListColumn<LedgerRead>[] {
  const columns: ListColumn<LedgerRead>[] = [
    { title: t.createTime, dataIndex: 'create_time', key: 'time', width: 170, keep: true },
    ...(withAccount
      ? [
          { title: t.holder, dataIndex: 'holder_name', key: 'holder', width: 120, keep: 'wide' as const, ellipsis: true },
          { title: t.device, dataIndex: 'device_name', key: 'device', width: 140, rank: 5, ellipsis: true },
        ]
      : []),
    { title: t.kind, dataIndex: 'kind_name', key: 'kind', width: 90, rank: 2 },
    {
      title: t.entryAmount,
      dataIndex: 'amount',
      key: 'amount',
      width: 110,
      align: 'right',
      keep: true,
      render: (v: number) => <Typography.Text type={v < 0 ? 'danger' : 'success'}>{(v > 0 ? '+' : '') + formatYuan(v)}</Typography.Text>,
    },
    { title: t.balanceAfter, dataIndex: 'balance', key: 'balance', width: 110, align: 'right', rank: 3, render: formatYuan },
    { title: t.kwh, dataIndex: 'kwh', key: 'kwh', width: 100, rank: 6, render: (v: number | null) => v ?? t.none },
    { title: t.method, dataIndex: 'method_name', key: 'method', width: 90, rank: 4, render: (v: string | null) => v ?? t.none },
    { title: t.operator, dataIndex: 'operator', key: 'operator', width: 100, rank: 7, ellipsis: true },
    { title: t.remark, dataIndex: 'remark', key: 'remark', width: 180, rank: 8, ellipsis: true, render: (v: string | null) => v ?? t.none },
  ];
  return withAccount ? columns.filter((column) => column.key !== 'kwh' && column.key !== 'kind') : columns;
}

export function billColumns(withAccount: boolean): ListColumn<BillRead>[] {
  return [
    { title: t.month, dataIndex: 'month', key: 'month', width: 90, keep: true },
    ...(withAccount
      ? [
          { title: t.holder, dataIndex: 'holder_name', key: 'holder', width: 120, keep: 'wide' as const, ellipsis: true },
          { title: t.device, dataIndex: 'device_name', key: 'device', width: 140, rank: 5, ellipsis: true },
        ]
      : []),
    { title: t.billKwh, dataIndex: 'kwh', key: 'kwh', width: 100, align: 'right', rank: 3 },
    ...t.periodNames.map((name, index) => ({
      title: `${name}（kWh / 元）`,
      key: `period-${index}`,
      width: 130,
      rank: 10 + index,
      render: (_: unknown, bill: BillRead) => {
        const period = bill.periods[index];
        return period ? `${period.kwh ?? 0} / ${formatYuan(period.cost ?? 0)}` : t.none;
      },
    })),
    { title: t.billAmount, dataIndex: 'amount', key: 'amount', width: 110, align: 'right', keep: true, render: formatYuan },
    {
      title: t.status,
      dataIndex: 'status_name',
      key: 'status',
      width: 90,
      keep: 'wide',
      render: (name: string, bill) => <Tag color={bill.status === 1 ? 'green' : 'orange'}>{name}</Tag>,
    },
    { title: t.settleTime, dataIndex: 'settle_time', key: 'settle_time', width: 170, rank: 20, render: (v: string | null) => v ?? t.none },
  ];
}

const REVIEW_COLORS: Record<number, string> = { 1: 'gold', 2: 'green', 3: 'red' };

export function orderColumns(onReview: ((order: OrderRead) => void) | null): ListColumn<OrderRead>[] {
  return [
    { title: t.createTime, dataIndex: 'create_time', key: 'time', width: 170, keep: 'wide' },
    { title: t.holder, dataIndex: 'holder_name', key: 'holder', width: 110, keep: true, ellipsis: true },
    { title: t.device, dataIndex: 'device_name', key: 'device', width: 140, rank: 6, ellipsis: true },
    { title: t.businessType, dataIndex: 'business_type_name', key: 'business_type', width: 90, keep: true },
    { title: t.summary, dataIndex: 'summary', key: 'summary', width: 220, rank: 2, ellipsis: true },
    {
      title: t.reviewState,
      dataIndex: 'review_state_name',
      key: 'review_state',
      width: 90,
      keep: 'wide',
      render: (name: string, order) => <Tag color={REVIEW_COLORS[order.review_state]}>{name}</Tag>,
    },
    { title: t.doneState, dataIndex: 'done_state_name', key: 'done_state', width: 90, rank: 4 },
    { title: t.creator, dataIndex: 'creator', key: 'creator', width: 100, rank: 7, ellipsis: true },
    { title: t.reviewer, dataIndex: 'reviewer', key: 'reviewer', width: 100, rank: 8, render: (v: string | null) => v ?? t.none },
    { title: t.reviewRemark, dataIndex: 'review_remark', key: 'review_remark', width: 160, rank: 9, ellipsis: true, render: (v: string | null) => v ?? t.none },
    { title: t.remark, dataIndex: 'remark', key: 'remark', width: 160, rank: 10, ellipsis: true, render: (v: string | null) => v ?? t.none },
    ...(onReview
      ? [
          {
            title: t.actionsColumn,
            key: 'actions',
            width: 80,
            // kept on a phone too: reviewing is what the list is for
            keep: true,
            fixed: 'right' as const,
            render: (_: unknown, order: OrderRead) =>
              order.review_state === 1 ? (
                <Button type="link" size="small" onClick={() => onReview(order)} data-testid="order-review">
                  {t.review}
                </Button>
              ) : null,
          },
        ]
      : []),
  ];
}
