import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button, Form, Input } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { accountApi } from '@/api/account/queries';
import { useBrand } from '@/brands/BrandContext';
import { AuthShell } from '@/components/AuthShell';
import { SmsCodeField } from '@/components/SmsCodeField';
import { NewPasswordFields } from '@/layout/account/NewPasswordFields';
import { required } from '@/layout/account/rules';
import { account } from '@/locales/zh-CN';
import { useMessage } from '@/components/Feedback';
import { mobileRule } from '@/utils/phone';

interface Values {
  mobile: string;
  validate_code?: string;
  name: string;
  password: string;
  confirm: string;
}

export default function RegisterPage() {
  const message = useMessage();
  const { flags } = useBrand();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [submitting, setSubmitting] = useState(false);

  async function submit(values: Values) {
    setSubmitting(true);
    try {
      const mobile = values.mobile.trim();
      const code = flags.SmsCode ? (values.validate_code ?? '') : '';
      if (flags.SmsCode) await accountApi.validateRegisterSms(mobile, code);
      await accountApi.register({ mobile, validate_code: code, password: values.password, name: values.name.trim() });
      queryClient.clear();
      message.success(account.registerSuccess);
      navigate('/', { replace: true });
    } catch {
      // Shown by the client.
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthShell title={account.register}>
      <Form form={form} name="register" layout="vertical" onFinish={submit}>
        <Form.Item label={account.mobile} name="mobile" rules={[required(account.rules.mobile), mobileRule(account.rules.mobileFormat)]}>
          <Input maxLength={11} autoComplete="username" />
        </Form.Item>
        {flags.SmsCode && (
          <SmsCodeField htmlFor="register_validate_code" send={accountApi.sendRegisterSms} />
        )}
        <Form.Item label={account.name} name="name" rules={[required(account.rules.name)]}>
          <Input maxLength={64} showCount />
        </Form.Item>
        <NewPasswordFields name="password" label={account.password} />
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {account.registerSubmit}
        </Button>
      </Form>
      <div style={{ marginTop: 16 }}>
        <Link to="/login">{account.haveAccount}</Link>
      </div>
    </AuthShell>
  );
}
