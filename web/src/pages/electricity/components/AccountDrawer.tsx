import { useMemo, useState } from 'react';
import { Button, Card, Descriptions, Drawer, Space, Tabs, Tag, theme } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useAccountDetail, useBills, useLedger, useOrders } from '@/api/billing/queries';
import type { AccountDetail, ActionRead } from '@/api/schema';
import { EChart } from '@/components/charts/EChart';
import { ListTable } from '@/components/ListTable';
import { billing as t } from '@/locales/zh-CN';
import { formatYuan } from '../billing';
import { Balance, billColumns, ledgerColumns, orderColumns, PowerTag } from '../columns';
import { AdjustModal } from './AdjustModal';

const PAGE = { pageIndex: 1, pageSize: 10 };

/** The bar chart's option: kWh per day, the day's cost in the tooltip. */
export function daysOption(days: AccountDetail['days'], color: string): EChartsCoreOption {
  return {
    color: [color],
    grid: { left: 48, right: 16, top: 24, bottom: 28 },
    tooltip: {
      trigger: 'axis',
      formatter: (items: { dataIndex: number }[]) => {
        const day = days[items[0]?.dataIndex ?? 0];
        return day ? `${day.date}<br/>${t.kwh}：${day.kwh}<br/>${t.cost}：${formatYuan(Number(day.cost))}` : '';
      },
    },
    xAxis: { type: 'category', data: days.map((d) => String(d.date).slice(5)) },
    yAxis: { type: 'value', name: 'kWh' },
    series: [{ type: 'bar', name: t.kwh, data: days.map((d) => d.kwh), barMaxWidth: 18 }],
  };
}

function pager(page: typeof PAGE, total: number, setPage: (p: typeof PAGE) => void) {
  return { current: page.pageIndex, pageSize: page.pageSize, total, size: 'small' as const, onChange: (pageIndex: number, pageSize: number) => setPage({ pageIndex, pageSize }) };
}

function LedgerList({ account }: { account: number }) {
  const [page, setPage] = useState(PAGE);
  const list = useLedger({ ...page, account_sysno: account });
  return (
    <ListTable
      tableId="billing-detail-ledger"
      rowKey="sysno"
      size="small"
      columns={ledgerColumns(false)}
      dataSource={list.data?.dataSource ?? []}
      loading={list.isFetching}
      pagination={pager(page, list.data?.totalCount ?? 0, setPage)}
      data-testid="detail-ledger"
    />
  );
}

function BillList({ account }: { account: number }) {
  const [page, setPage] = useState(PAGE);
  const list = useBills({ ...page, account_sysno: account });
  return (
    <ListTable
      tableId="billing-detail-bills"
      rowKey="sysno"
      size="small"
      columns={billColumns(false)}
      dataSource={list.data?.dataSource ?? []}
      loading={list.isFetching}
      pagination={pager(page, list.data?.totalCount ?? 0, setPage)}
    />
  );
}

function OrderList({ account }: { account: number }) {
  const [page, setPage] = useState(PAGE);
  const list = useOrders({ ...page, account_sysno: account });
  return (
    <ListTable
      tableId="billing-detail-orders"
      rowKey="sysno"
      size="small"
      columns={orderColumns(null)}
      dataSource={list.data?.dataSource ?? []}
      loading={list.isFetching}
      pagination={pager(page, list.data?.totalCount ?? 0, setPage)}
    />
  );
}

const ACTION_COLORS: Record<string, string> = { done: 'green', cancelled: 'default', skipped: 'default' };

function ActionList({ actions }: { actions: ActionRead[] }) {
  return (
    <ListTable<ActionRead>
      tableId="billing-detail-actions"
      rowKey="sysno"
      size="small"
      pagination={false}
      dataSource={actions}
      columns={[
        { title: t.createTime, dataIndex: 'create_time', key: 'time', width: 170, keep: true },
        { title: t.action, dataIndex: 'action_name', key: 'action', width: 70, keep: true },
        {
          title: t.actionState,
          dataIndex: 'state_name',
          key: 'state',
          width: 90,
          keep: 'wide',
          render: (name: string, row) => <Tag color={ACTION_COLORS[row.state] ?? 'processing'}>{name}</Tag>,
        },
        { title: t.dueTime, dataIndex: 'due_time', key: 'due', width: 170, rank: 3, render: (v: string | null) => v ?? t.none },
        { title: t.outcome, dataIndex: 'outcome', key: 'outcome', width: 200, rank: 2, ellipsis: true, render: (v: string | null) => v ?? t.none },
      ]}
      data-testid="detail-actions"
    />
  );
}

/** 详情: an account's figures, its 30 days of use, its ledger, bills, power actions and orders. */
export function AccountDrawer({ sysno, onClose }: { sysno: number | null; onClose: () => void }) {
  const detail = useAccountDetail(sysno);
  const [adjusting, setAdjusting] = useState<number | null>(null);
  const primary = theme.useToken().token.colorPrimary;
  const data = detail.data;
  const option = useMemo(() => daysOption(data?.days ?? [], primary), [data?.days, primary]);
  const account = data?.account;
  return (
    <Drawer
      open={sysno !== null}
      onClose={onClose}
      size={820}
      title={account ? t.detailTitle(account.holder_name) : t.detail}
      loading={detail.isPending}
      destroyOnHidden
      extra={
        <Button onClick={() => setAdjusting(sysno)} disabled={!account || account.state !== 1} data-testid="detail-adjust">
          {t.adjust}
        </Button>
      }
      data-testid="account-drawer"
    >
      {account && data && (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions
            size="small"
            bordered
            column={{ xs: 1, sm: 2 }}
            items={[
              { key: 'balance', label: t.balanceShort, children: <Balance account={account} /> },
              { key: 'power', label: t.power, children: <PowerTag account={account} /> },
              { key: 'holder', label: t.holder, children: `${account.holder_name} ${account.holder_mobile ?? ''}` },
              { key: 'device', label: t.device, children: `${account.device_name}（${account.gateway_sn} #${account.device_id}）` },
              { key: 'project', label: t.project, children: account.project_name },
              { key: 'charge', label: t.chargeType, children: account.charge_type_name },
              { key: 'price', label: t.pricing, children: account.flat_price === null ? t.pricingPlan : `${account.flat_price} 元/kWh` },
              { key: 'levels', label: t.levels, children: `${formatYuan(account.warn_balance)} / ${formatYuan(account.cutoff_balance)}` },
              { key: 'overdraft', label: t.overdraftLimit, children: formatYuan(account.overdraft_limit) },
              { key: 'kwh', label: t.chargedKwh, children: account.charged_kwh },
              { key: 'state', label: t.state, children: account.state_name },
              { key: 'recharge', label: t.lastRecharge, children: account.last_recharge_time ?? t.none },
            ]}
          />
          <Card size="small" title={t.days}>
            <EChart option={option} height={220} testId="detail-days" />
          </Card>
          <Tabs
            items={[
              { key: 'ledger', label: t.ledger, children: <LedgerList account={account.sysno} /> },
              { key: 'bills', label: t.tabs.bills, children: <BillList account={account.sysno} /> },
              { key: 'actions', label: t.actions, children: <ActionList actions={data.actions} /> },
              { key: 'orders', label: t.tabs.orders, children: <OrderList account={account.sysno} /> },
            ]}
          />
        </Space>
      )}
      <AdjustModal account={adjusting} onClose={() => setAdjusting(null)} />
    </Drawer>
  );
}
