import { useEffect } from 'react';
import { Form, Input, Modal, Select } from 'antd';
import { useCustomerProfile, useUpdateCustomer } from '@/api/account/queries';
import { account, common, dashboard } from '@/locales/zh-CN';
import { editInfoRules } from './rules';
import { useMessage } from '@/components/Feedback';

interface Values {
  account: string;
  mobile: string;
  name: string;
  email?: string;
  remark?: string;
  serial_no?: string;
}

// 大屏主题: the large screen's themes by their serial_no; empty follows the brand.
const THEME_OPTIONS = ['brand', '1', '2', '3', '4'].map((value) => ({
  value: value === 'brand' ? '' : value,
  label: value === 'brand' ? dashboard.themes[value] : `${value} ${dashboard.themes[value]}`,
}));

const blankToNull = (value: string | undefined) => (value && value.trim() ? value.trim() : null);

/** 编辑信息: the customer's own profile; the mobile is shown but cannot be changed here. */
export function EditInfoModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const message = useMessage();
  const [form] = Form.useForm<Values>();
  const profile = useCustomerProfile(open);
  const update = useUpdateCustomer();

  useEffect(() => {
    if (open && profile.data) {
      const p = profile.data;
      form.setFieldsValue({
        account: p.account,
        mobile: p.mobile,
        name: p.name,
        email: p.email ?? '',
        remark: p.remark ?? '',
        serial_no: p.serial_no ?? '',
      });
    }
  }, [open, profile.data, form]);

  async function submit() {
    const values = await form.validateFields();
    await update.mutateAsync({
      name: values.name.trim(),
      email: blankToNull(values.email),
      remark: blankToNull(values.remark),
      serial_no: blankToNull(values.serial_no),
    });
    message.success(common.saveSuccess);
    onClose();
  }

  return (
    <Modal
      title={account.editInfo}
      open={open}
      onCancel={onClose}
      onOk={() => submit().catch(() => undefined)}
      confirmLoading={update.isPending}
      okText={common.confirm}
      cancelText={common.cancel}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" name="edit-info" disabled={profile.isPending}>
        <Form.Item label={account.account} name="account">
          <Input disabled />
        </Form.Item>
        <Form.Item label={account.mobile} name="mobile" rules={editInfoRules.mobile}>
          <Input disabled />
        </Form.Item>
        <Form.Item label={account.name} name="name" rules={editInfoRules.name}>
          <Input maxLength={64} showCount />
        </Form.Item>
        <Form.Item label={account.email} name="email" rules={editInfoRules.email}>
          <Input maxLength={128} showCount />
        </Form.Item>
        <Form.Item label={account.serialNo} name="serial_no">
          <Select options={THEME_OPTIONS} />
        </Form.Item>
        <Form.Item label={account.remark} name="remark">
          <Input.TextArea rows={2} maxLength={500} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
