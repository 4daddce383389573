import { useState } from 'react';
import { Alert, DatePicker, Form, Input, InputNumber, Modal, Select } from 'antd';
import { billingApi, useAccounts, useBillingMutation, useBillingOptions } from '@/api/billing/queries';
import type { AccountRead } from '@/api/schema';
import { useMessage } from '@/components/Feedback';
import { useDialogWidth } from '@/hooks/useDialogWidth';
import { billing as t, common } from '@/locales/zh-CN';
import { MOBILE_LENGTH, mobileRule } from '@/utils/phone';
import { MONEY_MAX, optionList, orderBody, TEXT_MAX, type Method, type OrderForm } from '../billing';

/** A meter reading's limit (kWh) as the server takes it. */
const READING_MAX = 1e9;

/** An account found by holder, mobile or device as the user types. */
function AccountSelect({ value, onChange, known }: { value?: number; onChange?: (v: number) => void; known: AccountRead | null }) {
  const [keyword, setKeyword] = useState('');
  const list = useAccounts({ pageIndex: 1, pageSize: 50, low: false, state: 1, keyword: keyword.trim() || null });
  const rows = [...(known ? [known] : []), ...(list.data?.dataSource ?? []).filter((a) => a.sysno !== known?.sysno)];
  return (
    <Select<number>
      value={value}
      onChange={onChange}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      loading={list.isFetching}
      placeholder={t.accountPlaceholder}
      options={rows.map((a) => ({ value: a.sysno, label: `${a.holder_name} · ${a.device_name}（¥${a.balance.toFixed(2)}）` }))}
      data-testid="order-account"
    />
  );
}

/** 新建业务: 补电, 换表, 过户 or 销户 on an account; the fields follow the chosen type. */
export function OrderModal({ open, account, onClose }: { open: boolean; account: AccountRead | null; onClose: () => void }) {
  const [form] = Form.useForm<OrderForm>();
  const message = useMessage();
  const options = useBillingOptions();
  const width = useDialogWidth(520);
  const type = Form.useWatch('business_type', form);
  const add = useBillingMutation((values: OrderForm) => billingApi.addOrder(orderBody(values)));
  return (
    <Modal
      title={t.addOrder}
      open={open}
      width={width}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={common.confirm}
      cancelText={common.cancel}
      confirmLoading={add.isPending}
      destroyOnHidden
      data-testid="order-modal"
    >
      <Form
        form={form}
        layout="vertical"
        name="billing-order"
        clearOnDestroy
        initialValues={{ account_sysno: account?.sysno, business_type: 1, method: 'cash' }}
        onFinish={(values) =>
          add.mutate(values, {
            onSuccess: () => {
              void message.success(t.orderAdded);
              onClose();
            },
          })
        }
      >
        <Form.Item name="account_sysno" label={t.orderAccount} rules={[{ required: true, message: t.choose(t.orderAccount) }]}>
          <AccountSelect known={account} />
        </Form.Item>
        <Form.Item name="business_type" label={t.businessType} rules={[{ required: true }]}>
          <Select options={optionList<number>(options.data?.business_type)} data-testid="order-type" />
        </Form.Item>
        {type === 1 && (
          <Form.Item name="amount" label={t.supplyAmount} rules={[{ required: true, message: t.required(t.supplyAmount) }]}>
            <InputNumber min={0.01} max={MONEY_MAX} precision={2} style={{ width: '100%' }} data-testid="order-amount" />
          </Form.Item>
        )}
        {type === 2 && (
          <>
            <Form.Item name="old_final" label={t.oldFinal} rules={[{ required: true, message: t.required(t.oldFinal) }]}>
              <InputNumber min={0} max={READING_MAX} precision={2} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="new_initial" label={t.newInitial} rules={[{ required: true, message: t.required(t.newInitial) }]}>
              <InputNumber min={0} max={READING_MAX} precision={2} style={{ width: '100%' }} />
            </Form.Item>
            <Form.Item name="change_time" label={t.changeTime} rules={[{ required: true, message: t.choose(t.changeTime) }]}>
              <DatePicker showTime format="YYYY-MM-DD HH:mm:ss" style={{ width: '100%' }} />
            </Form.Item>
          </>
        )}
        {type === 3 && (
          <>
            <Form.Item name="new_holder_name" label={t.newHolderName} rules={[{ required: true, whitespace: true, message: t.required(t.newHolderName) }]}>
              <Input maxLength={TEXT_MAX.holder} showCount />
            </Form.Item>
            <Form.Item name="new_holder_mobile" label={t.newHolderMobile} rules={[mobileRule()]}>
              <Input maxLength={MOBILE_LENGTH} showCount inputMode="numeric" />
            </Form.Item>
          </>
        )}
        {type === 4 && (
          <>
            <Alert type="warning" showIcon message={t.closeHint} style={{ marginBottom: 16 }} />
            <Form.Item name="method" label={t.refundMethod} rules={[{ required: true, message: t.choose(t.refundMethod) }]}>
              <Select options={optionList<Method>(options.data?.method)} />
            </Form.Item>
          </>
        )}
        <Form.Item name="remark" label={t.remark}>
          <Input.TextArea maxLength={TEXT_MAX.remark} showCount autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
