import { Form, Input, InputNumber, Modal } from 'antd';
import { billingApi, useBillingMutation } from '@/api/billing/queries';
import { useMessage } from '@/components/Feedback';
import { useDialogWidth } from '@/hooks/useDialogWidth';
import { billing as t, common } from '@/locales/zh-CN';
import { MONEY_MAX, TEXT_MAX } from '../billing';

interface Values {
  amount: number;
  remark: string;
}

/** 调整余额: a correction up or down, with its reason (kept in the ledger). */
export function AdjustModal({ account, onClose }: { account: number | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const message = useMessage();
  const width = useDialogWidth(440);
  const adjust = useBillingMutation((values: Values) =>
    billingApi.adjust({ account_sysno: account ?? 0, amount: values.amount, remark: values.remark.trim() }),
  );
  return (
    <Modal
      title={t.adjust}
      open={account !== null}
      width={width}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={common.confirm}
      cancelText={common.cancel}
      confirmLoading={adjust.isPending}
      destroyOnHidden
      data-testid="adjust-modal"
    >
      <Form
        form={form}
        layout="vertical"
        name="billing-adjust"
        clearOnDestroy
        onFinish={(values) =>
          adjust.mutate(values, {
            onSuccess: () => {
              void message.success(t.adjusted);
              onClose();
            },
          })
        }
      >
        <Form.Item
          name="amount"
          label={t.adjustAmount}
          rules={[
            { required: true, message: t.required(t.adjustAmount) },
            { validator: (_, v: number | null) => (v === 0 ? Promise.reject(new Error(t.adjustNotZero)) : Promise.resolve()) },
          ]}
        >
          <InputNumber min={-MONEY_MAX} max={MONEY_MAX} precision={2} style={{ width: '100%' }} data-testid="adjust-amount" />
        </Form.Item>
        <Form.Item name="remark" label={t.adjustReason} rules={[{ required: true, whitespace: true, message: t.required(t.adjustReason) }]}>
          <Input.TextArea maxLength={TEXT_MAX.remark} showCount autoSize={{ minRows: 2, maxRows: 4 }} data-testid="adjust-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
