import { Form, Input, InputNumber, Modal, Select } from 'antd';
import { billingApi, useBillingMutation, useBillingOptions } from '@/api/billing/queries';
import { useMessage } from '@/components/Feedback';
import { useDialogWidth } from '@/hooks/useDialogWidth';
import { billing as t, common } from '@/locales/zh-CN';
import { MONEY_MAX, optionList, TEXT_MAX, type Method } from '../billing';

interface Values {
  amount: number;
  method: Method;
  remark?: string;
}

interface Props {
  /** The accounts to pay into (one, or several for a batch recharge); null when closed. */
  accounts: number[] | null;
  onClose: () => void;
}

/** 充值: the same sum into one or several accounts; an account cut for its balance comes back on. */
export function RechargeModal({ accounts, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const message = useMessage();
  const options = useBillingOptions();
  const width = useDialogWidth(440);
  const recharge = useBillingMutation((values: Values) =>
    billingApi.recharge({ account_sysnos: accounts ?? [], amount: values.amount, method: values.method, remark: values.remark?.trim() || null }),
  );
  const count = accounts?.length ?? 0;
  return (
    <Modal
      title={t.rechargeTitle(count)}
      open={accounts !== null}
      width={width}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={common.confirm}
      cancelText={common.cancel}
      confirmLoading={recharge.isPending}
      destroyOnHidden
      data-testid="recharge-modal"
    >
      <Form
        form={form}
        layout="vertical"
        name="billing-recharge"
        clearOnDestroy
        initialValues={{ method: 'cash' }}
        onFinish={(values) =>
          recharge.mutate(values, {
            onSuccess: (answer) => {
              void message.success(t.rechargeDone(answer.count ?? count, answer.restores ?? 0));
              onClose();
            },
          })
        }
      >
        <Form.Item name="amount" label={t.amount} rules={[{ required: true, message: t.required(t.amount) }]}>
          <InputNumber min={0.01} max={MONEY_MAX} precision={2} step={10} style={{ width: '100%' }} data-testid="recharge-amount" />
        </Form.Item>
        <Form.Item name="method" label={t.method} rules={[{ required: true, message: t.choose(t.method) }]}>
          <Select options={optionList<Method>(options.data?.method)} data-testid="recharge-method" />
        </Form.Item>
        <Form.Item name="remark" label={t.remark}>
          <Input.TextArea maxLength={TEXT_MAX.remark} showCount autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
