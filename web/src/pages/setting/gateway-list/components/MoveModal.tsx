import { useEffect } from 'react';
import { Alert, Form, Modal, Select } from 'antd';
import { useMoveGateway } from '@/api/gateways/queries';
import type { GatewayRead } from '@/api/schema';
import { useProject, useProjectOptions } from '@/api/projects/queries';
import { gateways } from '@/locales/zh-CN';
import { useMessage } from '@/components/Feedback';

interface Props {
  gateway: GatewayRead | null;
  onClose: () => void;
}

interface Values {
  project_sysno: number;
  building_sysno: number | null;
}

/** Moves a gateway, with its devices, to another project (and optionally one of its buildings). */
export function MoveModal({ gateway, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const message = useMessage();
  const options = useProjectOptions();
  const target = Form.useWatch('project_sysno', form);
  const project = useProject(gateway ? target : null);
  const move = useMoveGateway();

  useEffect(() => {
    if (gateway) form.resetFields();
  }, [gateway, form]);

  async function submit() {
    if (!gateway) return;
    const values = await form.validateFields();
    await move.mutateAsync({ sysno: gateway.sysno, project_sysno: values.project_sysno, building_sysno: values.building_sysno ?? null });
    message.success(gateways.moved);
    onClose();
  }

  return (
    <Modal
      open={gateway !== null}
      title={gateway ? gateways.moveTitle(gateway.name) : ''}
      onCancel={onClose}
      onOk={() => submit().catch(() => undefined)}
      confirmLoading={move.isPending}
      destroyOnHidden
    >
      <Alert type="info" showIcon message={gateways.moveHint} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" name="gateway-move" preserve={false}>
        <Form.Item name="project_sysno" label={gateways.targetProject} rules={[{ required: true, message: gateways.projectRequired }]}>
          <Select
            options={(options.data ?? [])
              .filter((p) => p.sysno !== gateway?.project_sysno)
              .map((p) => ({ value: p.sysno, label: p.name }))}
            onChange={() => form.setFieldValue('building_sysno', null)}
          />
        </Form.Item>
        <Form.Item name="building_sysno" label={gateways.building}>
          <Select
            allowClear
            placeholder={gateways.buildingNone}
            options={(project.data?.list_child ?? []).map((b) => ({ value: b.sysno, label: b.name }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
