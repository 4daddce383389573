import { useEffect } from 'react';
import { Form, Input, Modal, Select } from 'antd';
import { useAddGateway, useUpdateGateway } from '@/api/gateways/queries';
import type { GatewayRead, GatewaySecret } from '@/api/schema';
import { useProject, useProjectOptions } from '@/api/projects/queries';
import { gateways } from '@/locales/zh-CN';
import { useMessage } from '@/components/Feedback';

interface Props {
  open: boolean;
  /** The gateway being edited, or null to register a new one. */
  gateway: GatewayRead | null;
  onClose: () => void;
  /** Called with the one-time secret after a registration. */
  onRegistered: (secret: GatewaySecret) => void;
}

interface Values {
  sn: string;
  name: string;
  project_sysno: number;
  building_sysno: number | null;
  remark: string | null;
}

const SN = /^[A-Za-z0-9_.:-]{4,64}$/;

/** Registers a gateway by its serial number, or edits its name, building and remark. */
export function GatewayModal({ open, gateway, onClose, onRegistered }: Props) {
  const [form] = Form.useForm<Values>();
  const message = useMessage();
  const options = useProjectOptions();
  const projectSysno = Form.useWatch('project_sysno', form) ?? gateway?.project_sysno;
  const project = useProject(open ? projectSysno : null);
  const add = useAddGateway();
  const update = useUpdateGateway();

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (gateway) form.setFieldsValue(gateway);
  }, [open, gateway, form]);

  async function submit() {
    const values = await form.validateFields();
    const remark = values.remark?.trim() || null;
    if (gateway) {
      await update.mutateAsync({ sysno: gateway.sysno, name: values.name.trim(), remark, building_sysno: values.building_sysno ?? null });
      message.success(gateways.saved);
      onClose();
      return;
    }
    const created = await add.mutateAsync({
      sn: values.sn.trim(),
      name: values.name.trim(),
      project_sysno: values.project_sysno,
      building_sysno: values.building_sysno ?? null,
      remark,
    });
    message.success(gateways.registered);
    onClose();
    onRegistered(created);
  }

  const buildingOptions = (project.data?.list_child ?? []).map((b) => ({ value: b.sysno, label: b.name }));
  return (
    <Modal
      open={open}
      title={gateway ? gateways.edit : gateways.add}
      onCancel={onClose}
      onOk={() => submit().catch(() => undefined)}
      confirmLoading={add.isPending || update.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="gateway-form" preserve={false}>
        <Form.Item
          name="sn"
          label={gateways.sn}
          rules={gateway ? [] : [{ required: true, message: gateways.snRequired }, { pattern: SN, message: gateways.snInvalid }]}
        >
          <Input placeholder={gateways.snPlaceholder} disabled={gateway !== null} maxLength={64} showCount />
        </Form.Item>
        <Form.Item name="name" label={gateways.name} rules={[{ required: true, whitespace: true, message: gateways.nameRequired }, { max: 64 }]}>
          <Input maxLength={64} showCount />
        </Form.Item>
        <Form.Item name="project_sysno" label={gateways.project} rules={[{ required: true, message: gateways.projectRequired }]}>
          <Select
            disabled={gateway !== null}
            loading={options.isPending}
            options={(options.data ?? []).map((p) => ({ value: p.sysno, label: p.name }))}
            onChange={() => form.setFieldValue('building_sysno', null)}
            showSearch={{ optionFilterProp: 'label' }}
          />
        </Form.Item>
        <Form.Item name="building_sysno" label={gateways.building}>
          <Select allowClear placeholder={gateways.buildingNone} options={buildingOptions} loading={project.isFetching} />
        </Form.Item>
        <Form.Item name="remark" label={gateways.remark} rules={[{ max: 500 }]}>
          <Input.TextArea rows={2} maxLength={500} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
