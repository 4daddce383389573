import { useEffect } from 'react';
import { Form, Input, Modal } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { controlApi, useControlRefresh } from '@/api/control/queries';
import type { GroupRead } from '@/api/schema';
import { DevicePicker } from '@/components/control/DevicePicker';
import { useMessage } from '@/components/Feedback';
import { control, groupControl } from '@/locales/zh-CN';

interface Values {
  name: string;
  remark?: string;
  device_sysnos: number[];
}

/** Create or edit a device group. */
export function GroupModal({ open, group, onClose }: { open: boolean; group: GroupRead | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const message = useMessage();
  const refresh = useControlRefresh();
  const save = useMutation({
    mutationFn: (v: Values) => {
      const body = { name: v.name, remark: v.remark || null, device_sysnos: v.device_sysnos ?? [] };
      return group ? controlApi.updateGroup({ ...body, sysno: group.sysno }) : controlApi.addGroup(body);
    },
    onSuccess: () => {
      void message.success(groupControl.saved);
      refresh();
      onClose();
    },
  });

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue(
      group
        ? { name: group.name, remark: group.remark ?? undefined, device_sysnos: group.devices.map((d) => d.sysno) }
        : { name: '', remark: undefined, device_sysnos: [] },
    );
  }, [open, group, form]);

  return (
    <Modal
      open={open}
      title={group ? groupControl.edit : groupControl.add}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={control.ok}
      cancelText={control.cancel}
      confirmLoading={save.isPending}
      width={600}
      destroyOnHidden
      forceRender
    >
      <Form<Values> form={form} layout="vertical" onFinish={(v) => save.mutate(v)} name="group-form">
        <Form.Item name="name" label={groupControl.name} rules={[{ required: true, whitespace: true, message: groupControl.nameRequired }]}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="device_sysnos" label={groupControl.devices}>
          <DevicePicker known={group?.devices} />
        </Form.Item>
        <Form.Item name="remark" label={groupControl.remark}>
          <Input.TextArea maxLength={255} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
