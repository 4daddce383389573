import { Card, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { billing as t } from '@/locales/zh-CN';
import { AccountDrawer } from './components/AccountDrawer';
import { AccountsTab } from './components/AccountsTab';
import { BillsTab } from './components/BillsTab';
import { OrdersTab } from './components/OrdersTab';
import { RechargesTab } from './components/RechargesTab';
import { RuleTab } from './components/RuleTab';

/** 电费管理: prepaid and post-paid electricity accounts, their bills, business orders, recharges and the cut-off rule. */
export default function ElectricityPage() {
  // The tab and the open account are in the address (?tab=orders, ?account=12): an 电费 notice leads to an account.
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') ?? 'accounts';
  const account = Number(params.get('account')) || null;
  const show = (next: Record<string, string>) => setParams(next, { replace: true });
  const openAccount = (sysno: number | null) => show(sysno === null ? { tab } : { tab, account: String(sysno) });
  return (
    <Card size="small" data-testid="electricity-page">
      <Tabs
        activeKey={tab}
        onChange={(key) => show({ tab: key })}
        destroyOnHidden
        items={[
          { key: 'accounts', label: t.tabs.accounts, children: <AccountsTab onDetail={openAccount} /> },
          { key: 'bills', label: t.tabs.bills, children: <BillsTab /> },
          { key: 'orders', label: t.tabs.orders, children: <OrdersTab /> },
          { key: 'recharges', label: t.tabs.recharges, children: <RechargesTab /> },
          { key: 'rule', label: t.tabs.rule, children: <RuleTab /> },
        ]}
      />
      <AccountDrawer sysno={account} onClose={() => openAccount(null)} />
    </Card>
  );
}
