import { Form, Input, Modal } from 'antd';
import { notifier } from '@/api/core/notify';
import { useProcessAlarms } from '@/api/alarms/queries';
import { alarms, common } from '@/locales/zh-CN';

interface Props {
  sysnos: number[];
  onClose: (processed: boolean) => void;
}

/** 处理告警: a remark for one or many alarms. */
export function ProcessModal({ sysnos, onClose }: Props) {
  const [form] = Form.useForm<{ remark: string }>();
  const process = useProcessAlarms();

  function submit({ remark }: { remark: string }) {
    process.mutate(
      { sysno: sysnos, remark: remark?.trim() ?? '' },
      {
        onSuccess: () => {
          notifier().success(alarms.processed);
          onClose(true);
        },
      },
    );
  }

  return (
    <Modal
      title={alarms.processTitle}
      open={sysnos.length > 0}
      onCancel={() => onClose(false)}
      onOk={() => form.submit()}
      okText={common.confirm}
      cancelText={common.cancel}
      confirmLoading={process.isPending}
      destroyOnHidden
    >
      <p>{alarms.processCount(sysnos.length)}</p>
      <Form form={form} onFinish={submit} preserve={false} name="process-alarm">
        <Form.Item name="remark" rules={[{ max: 200, message: alarms.remarkPlaceholder }]}>
          <Input.TextArea rows={4} maxLength={200} showCount placeholder={alarms.remarkPlaceholder} data-testid="process-remark" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
