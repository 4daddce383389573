import { Descriptions, Form, Input, Modal, Space, Button } from 'antd';
import { billingApi, useBillingMutation } from '@/api/billing/queries';
import type { OrderRead } from '@/api/schema';
import { useMessage } from '@/components/Feedback';
import { useDialogWidth } from '@/hooks/useDialogWidth';
import { billing as t, common } from '@/locales/zh-CN';
import { TEXT_MAX } from '../billing';

/** 审核: pass (the order is carried out) or refuse an unreviewed order, with a remark. */
export function ReviewModal({ order, onClose }: { order: OrderRead | null; onClose: () => void }) {
  const [form] = Form.useForm<{ remark?: string }>();
  const message = useMessage();
  const width = useDialogWidth(480);
  const review = useBillingMutation((approve: boolean) =>
    billingApi.reviewOrder({ sysno: order?.sysno ?? 0, approve, remark: (form.getFieldValue('remark') as string | undefined)?.trim() || null }),
  );
  const decide = (approve: boolean) =>
    review.mutate(approve, {
      onSuccess: () => {
        void message.success(t.reviewed);
        onClose();
      },
    });
  return (
    <Modal
      title={t.reviewTitle}
      open={order !== null}
      width={width}
      onCancel={onClose}
      destroyOnHidden
      data-testid="review-modal"
      footer={
        <Space>
          <Button onClick={onClose}>{common.cancel}</Button>
          <Button danger loading={review.isPending && review.variables === false} onClick={() => decide(false)} data-testid="review-reject">
            {t.reject}
          </Button>
          <Button type="primary" loading={review.isPending && review.variables === true} onClick={() => decide(true)} data-testid="review-approve">
            {t.approve}
          </Button>
        </Space>
      }
    >
      {order && (
        <Descriptions
          size="small"
          column={1}
          style={{ marginBottom: 16 }}
          items={[
            { key: 'holder', label: t.holder, children: `${order.holder_name} · ${order.device_name}` },
            { key: 'type', label: t.businessType, children: order.business_type_name },
            { key: 'summary', label: t.summary, children: order.summary },
            { key: 'creator', label: t.creator, children: `${order.creator} ${order.create_time ?? ''}` },
          ]}
        />
      )}
      <Form form={form} layout="vertical" name="billing-review" clearOnDestroy>
        <Form.Item name="remark" label={t.reviewRemark}>
          <Input.TextArea maxLength={TEXT_MAX.remark} showCount autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
