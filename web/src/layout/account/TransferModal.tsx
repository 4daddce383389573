import { useState } from 'react';
import { Alert, Form, Input, Modal, Space } from 'antd';
import { accountApi, useMyInfo } from '@/api/account/queries';
import { TRANSFER_SMS_CURRENT, TRANSFER_SMS_TARGET } from '@/api/account/types';
import { useBrand } from '@/brands/BrandContext';
import { SmsCodeButton } from '@/components/SmsCodeButton';
import { account, common } from '@/locales/zh-CN';
import { transferRules, transferSendProblem } from './rules';
import { useLogout } from './useLogout';
import { useMessage } from '@/components/Feedback';

interface Values {
  old_mobile: string;
  new_mobile: string;
  validate_code?: string;
  target_validate_code?: string;
}

/** 转移账号: moves the account to another phone; the server revokes every token on success. */
export function TransferModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const message = useMessage();
  const { flags } = useBrand();
  const me = useMyInfo();
  const logout = useLogout();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const rules = transferRules(flags.SmsCode);

  async function submit() {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await accountApi.transform({
        old_mobile: values.old_mobile.trim(),
        new_mobile: values.new_mobile.trim(),
        validate_code: flags.SmsCode ? (values.validate_code ?? '') : '',
        target_validate_code: flags.SmsCode ? (values.target_validate_code ?? '') : '',
        is_show_code: flags.SmsCode,
      });
      message.success(account.transferSuccess);
      onClose();
      await logout(false);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      title={account.transferAccount}
      open={open}
      onCancel={onClose}
      onOk={() => submit().catch(() => undefined)}
      confirmLoading={saving}
      okText={common.confirm}
      cancelText={common.cancel}
      destroyOnHidden
      forceRender
    >
      <Alert type="info" showIcon title={account.transferHint} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" name="transfer" initialValues={{ old_mobile: me.data?.mobile ?? '' }}>
        <Form.Item label={account.currentAccount} name="old_mobile" rules={rules.old_mobile}>
          <Input maxLength={11} />
        </Form.Item>
        {flags.SmsCode && (
          <Form.Item label={account.currentCode} required htmlFor="transfer_validate_code">
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="validate_code" noStyle rules={rules.validate_code}>
                <Input maxLength={6} />
              </Form.Item>
              <SmsCodeButton
                testId="send-current-code"
                check={() => transferSendProblem('current', form.getFieldValue('old_mobile'))}
                send={() => accountApi.sendTransformSms(form.getFieldValue('old_mobile'), TRANSFER_SMS_CURRENT)}
              />
            </Space.Compact>
          </Form.Item>
        )}
        <Form.Item label={account.targetMobile} name="new_mobile" dependencies={['old_mobile']} rules={rules.new_mobile}>
          <Input maxLength={11} />
        </Form.Item>
        {flags.SmsCode && (
          <Form.Item label={account.targetCode} required htmlFor="transfer_target_validate_code">
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="target_validate_code" noStyle rules={rules.target_validate_code}>
                <Input maxLength={6} />
              </Form.Item>
              <SmsCodeButton
                testId="send-target-code"
                check={() => transferSendProblem('target', form.getFieldValue('new_mobile'))}
                send={() => accountApi.sendTransformSms(form.getFieldValue('new_mobile'), TRANSFER_SMS_TARGET)}
              />
            </Space.Compact>
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
