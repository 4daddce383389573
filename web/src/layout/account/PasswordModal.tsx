import { useState } from 'react';
import { Form, Input, Modal, Space } from 'antd';
import { accountApi, useMyInfo } from '@/api/account/queries';
import { useBrand } from '@/brands/BrandContext';
import { SmsCodeButton } from '@/components/SmsCodeButton';
import { account, common } from '@/locales/zh-CN';
import { confirmRule, passwordRules, required } from './rules';
import { useLogout } from './useLogout';
import { useMessage } from '@/components/Feedback';

interface Values {
  old_password: string;
  new_password: string;
  confirm_password: string;
  mobile?: string;
  validate_code?: string;
}

/** 修改密码: phone and code inputs only for brands with SMS codes; success logs the user out. */
export function PasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const message = useMessage();
  const { flags } = useBrand();
  const me = useMyInfo();
  const logout = useLogout();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  async function submit() {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await accountApi.updatePassword({
        old_password: values.old_password,
        new_password: values.new_password,
        validate_code: flags.SmsCode ? (values.validate_code ?? '') : '',
        mobile: flags.SmsCode ? (values.mobile ?? '') : '',
      });
      message.success(account.passwordUpdated);
      onClose();
      await logout(false);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      title={account.changePassword}
      open={open}
      onCancel={onClose}
      onOk={() => submit().catch(() => undefined)}
      confirmLoading={saving}
      okText={common.confirm}
      cancelText={common.cancel}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" name="change-password" initialValues={{ mobile: me.data?.mobile ?? '' }}>
        <Form.Item label={account.oldPassword} name="old_password" rules={[required(account.rules.oldPassword)]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item label={account.newPassword} name="new_password" rules={passwordRules}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label={account.confirmPassword}
          name="confirm_password"
          dependencies={['new_password']}
          rules={[required(account.rules.confirmPassword), confirmRule('new_password')]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        {flags.SmsCode && (
          <>
            <Form.Item label={account.mobile} name="mobile" rules={[required(account.rules.mobile)]}>
              <Input maxLength={11} />
            </Form.Item>
            <Form.Item label={account.verifyCode} required htmlFor="change-password_validate_code">
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item name="validate_code" noStyle rules={[required(account.rules.code)]}>
                  <Input maxLength={6} />
                </Form.Item>
                <SmsCodeButton
                  check={() => (form.getFieldValue('mobile') ? null : account.rules.mobile)}
                  send={() => accountApi.sendUpdatePasswordSms(form.getFieldValue('mobile'))}
                />
              </Space.Compact>
            </Form.Item>
          </>
        )}
      </Form>
    </Modal>
  );
}
