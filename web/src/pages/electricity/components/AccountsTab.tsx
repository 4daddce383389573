import { useState } from 'react';
import { Button, Checkbox, Form, Input, Modal, Select, Space, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { billingApi, useAccounts, useBillingMutation, useBillingOptions } from '@/api/billing/queries';
import type { AccountQuery, AccountRead } from '@/api/schema';
import { ExportListButton } from '@/components/ExportListButton';
import { FilterActions } from '@/components/FilterActions';
import { FilterForm } from '@/components/FilterForm';
import { ListTable } from '@/components/ListTable';
import { ProjectSelect } from '@/components/ProjectSelect';
import { useMessage } from '@/components/Feedback';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { billing as t } from '@/locales/zh-CN';
import { optionList, TEXT_MAX } from '../billing';
import { accountColumns } from '../columns';
import { AccountModal } from './AccountModal';
import { OrderModal } from './OrderModal';
import { RechargeModal } from './RechargeModal';

interface Filters {
  project_sysno?: number;
  keyword?: string;
  charge_type?: AccountQuery['charge_type'];
  power?: AccountQuery['power'];
  low?: boolean;
}

/** 电费账户: the accounts with their balance and power, batch recharge and cut/restore, 开户. */
export function AccountsTab({ onDetail }: { onDetail: (sysno: number) => void }) {
  const message = useMessage();
  const [modal, modalHolder] = Modal.useModal();
  const options = useBillingOptions();
  const paged = usePagedQuery<Filters>({ showTotal: t.total });
  const query: AccountQuery = {
    ...paged.page,
    ...paged.order,
    project_sysno: paged.filters.project_sysno ?? null,
    keyword: paged.filters.keyword?.trim() || null,
    charge_type: paged.filters.charge_type ?? null,
    power: paged.filters.power ?? null,
    low: paged.filters.low ?? false,
  };
  const list = useAccounts(query);
  const [selected, setSelected] = useState<number[]>([]);
  const [recharging, setRecharging] = useState<number[] | null>(null);
  const [editing, setEditing] = useState<AccountRead | 'new' | null>(null);
  const [ordering, setOrdering] = useState<AccountRead | null>(null);
  const switcher = useBillingMutation((action: 'switch_off' | 'switch_on') => billingApi.switchAccounts({ account_sysnos: selected, action }));

  const confirmSwitch = (action: 'switch_off' | 'switch_on') => {
    const name = action === 'switch_off' ? t.switchOff : t.switchOn;
    void modal.confirm({
      title: t.switchConfirm(name, selected.length),
      okButtonProps: { danger: action === 'switch_off' },
      onOk: () =>
        switcher.mutateAsync(action).then((answer) => {
          void message.success(t.switchDone(name, answer.succeeded ?? 0, answer.failed ?? 0));
        }),
    });
  };

  const none = selected.length === 0;
  return (
    <>
      <FilterForm<Filters>
        name="billing-accounts"
        onFinish={(values) => paged.search(values)}
        actions={
          <>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="account-open">
              {t.open}
            </Button>
            <ExportListButton download={() => billingApi.exportAccounts(query)} fallbackName={t.exportAccounts} />
          </>
        }
      >
        <Form.Item name="project_sysno">
          <ProjectSelect width={150} placeholder={t.allProjects} />
        </Form.Item>
        <Form.Item name="keyword">
          <Input allowClear maxLength={TEXT_MAX.keyword} placeholder={t.keyword} style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="charge_type">
          <Select allowClear placeholder={t.allChargeTypes} style={{ width: 150 }} options={optionList<number>(options.data?.charge_type)} />
        </Form.Item>
        <Form.Item name="power">
          <Select allowClear placeholder={t.allPower} style={{ width: 130 }} options={optionList<string>(options.data?.power)} />
        </Form.Item>
        <Form.Item name="low" valuePropName="checked">
          <Checkbox data-testid="filter-low">{t.lowOnly}</Checkbox>
        </Form.Item>
        <Form.Item>
          <FilterActions onReset={() => paged.search({})} />
        </Form.Item>
      </FilterForm>
      <Space wrap style={{ marginBottom: 12 }}>
        <Typography.Text type="secondary">{t.selected(selected.length)}</Typography.Text>
        <Button size="small" disabled={none} onClick={() => setRecharging(selected)} data-testid="batch-recharge">
          {t.batchRecharge}
        </Button>
        <Button size="small" danger disabled={none} onClick={() => confirmSwitch('switch_off')} data-testid="batch-off">
          {t.switchOff}
        </Button>
        <Button size="small" disabled={none} onClick={() => confirmSwitch('switch_on')} data-testid="batch-on">
          {t.switchOn}
        </Button>
      </Space>
      <ListTable<AccountRead>
        tableId="billing-accounts"
        rowKey="sysno"
        columns={accountColumns({
          onRecharge: (a) => setRecharging([a.sysno]),
          onDetail: (a) => onDetail(a.sysno),
          onEdit: setEditing,
          onOrder: setOrdering,
        })}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        {...paged.tableProps(list)}
        data-testid="account-table"
      />
      {modalHolder}
      <RechargeModal accounts={recharging} onClose={() => setRecharging(null)} />
      <AccountModal editing={editing} onClose={() => setEditing(null)} />
      <OrderModal open={ordering !== null} account={ordering} onClose={() => setOrdering(null)} />
    </>
  );
}
