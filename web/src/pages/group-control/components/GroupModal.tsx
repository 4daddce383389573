import { useEffect } from 'react';
import { Form, Input, Modal, Spin } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { controlApi, useControlRefresh, useGroup } from '@/api/control/queries';
import { DevicePicker } from '@/components/control/DevicePicker';
import { useMessage } from '@/components/Feedback';
import { control, groupControl } from '@/locales/zh-CN';

interface Values {
  name: string;
  remark?: string;
  device_sysnos: number[];
}

/** Create a device group, or edit one (``sysno``), whose devices it reads itself. */
export function GroupModal({ open, sysno, onClose }: { open: boolean; sysno: number | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const loaded = useGroup(open ? sysno : null);
  const group = sysno === null ? null : (loaded.data ?? null);
  const message = useMessage();
  const refresh = useControlRefresh();
  const save = useMutation({
    mutationFn: (v: Values) => {
      const body = { name: v.name, remark: v.remark || null, device_sysnos: v.device_sysnos ?? [] };
      return sysno !== null ? controlApi.updateGroup({ ...body, sysno }) : controlApi.addGroup(body);
    },
    onSuccess: () => {
      void message.success(groupControl.saved);
      refresh();
      onClose();
    },
  });

  useEffect(() => {
    if (!open || (sysno !== null && !group)) return;
    form.setFieldsValue(
      group
        ? { name: group.name, remark: group.remark ?? undefined, device_sysnos: group.devices.map((d) => d.sysno) }
        : { name: '', remark: undefined, device_sysnos: [] },
    );
  }, [open, sysno, group, form]);

  return (
    <Modal
      open={open}
      title={sysno !== null ? groupControl.edit : groupControl.add}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={control.ok}
      cancelText={control.cancel}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: sysno !== null && !group }}
      width={600}
      destroyOnHidden
      forceRender
    >
      <Spin spinning={sysno !== null && !group}>
      <Form<Values> form={form} layout="vertical" onFinish={(v) => save.mutate(v)} name="group-form">
        <Form.Item name="name" label={groupControl.name} rules={[{ required: true, whitespace: true, message: groupControl.nameRequired }]}>
          <Input maxLength={64} showCount />
        </Form.Item>
        <Form.Item name="device_sysnos" label={groupControl.devices}>
          <DevicePicker known={group?.devices} />
        </Form.Item>
        <Form.Item name="remark" label={groupControl.remark}>
          <Input.TextArea maxLength={255} showCount rows={2} />
        </Form.Item>
      </Form>
      </Spin>
    </Modal>
  );
}
