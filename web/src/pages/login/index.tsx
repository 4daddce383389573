import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button, Form, Input, Segmented, Space } from 'antd';
import { LockOutlined, MobileOutlined, SafetyOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { accountApi } from '@/api/account/queries';
import type { LoginResult } from '@/api/schema';
import { useBrand } from '@/brands/BrandContext';
import { AuthShell } from '@/components/AuthShell';
import { SmsCodeButton } from '@/components/SmsCodeButton';
import { mobileSendProblem, required } from '@/layout/account/rules';
import { account } from '@/locales/zh-CN';
import { safeRedirect } from '@/router/guards';
import { useMessage } from '@/components/Feedback';
import { mobileRule } from '@/utils/phone';

type Mode = 'password' | 'sms';

export default function LoginPage() {
  const message = useMessage();
  const { flags } = useBrand();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [mode, setMode] = useState<Mode>('password');
  const [submitting, setSubmitting] = useState(false);
  const [form] = Form.useForm<{ mobile: string; password?: string; validate_code?: string }>();

  async function submit(values: { mobile: string; password?: string; validate_code?: string }) {
    setSubmitting(true);
    try {
      const login: Promise<LoginResult> =
        mode === 'sms'
          ? accountApi.loginBySms(values.mobile.trim(), values.validate_code ?? '')
          : accountApi.loginByPass(values.mobile.trim(), values.password ?? '');
      await login;
      queryClient.clear();
      message.success(account.loginSuccess);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch {
      // The client already showed the server's reason.
    } finally {
      setSubmitting(false);
    }
  }

  const tabs: { key: Mode; label: string }[] = [{ key: 'password', label: account.passwordTab }];
  if (flags.SmsCode) tabs.push({ key: 'sms', label: account.smsTab });

  return (
    <AuthShell title={account.loginTitle}>
      {tabs.length > 1 && (
        <Segmented<Mode>
          block
          value={mode}
          onChange={setMode}
          options={tabs.map(({ key, label }) => ({ value: key, label }))}
          style={{ marginBottom: 24 }}
          data-testid="login-mode"
        />
      )}
      <Form form={form} name="login" size="large" onFinish={submit} autoComplete="on">
        <Form.Item name="mobile" rules={[required(account.rules.mobile), mobileRule(account.rules.mobileFormat)]}>
          <Input prefix={<MobileOutlined />} placeholder={account.mobile} maxLength={11} autoComplete="username" />
        </Form.Item>
        {mode === 'password' ? (
          <Form.Item name="password" rules={[required(account.rules.password)]}>
            <Input.Password prefix={<LockOutlined />} placeholder={account.password} autoComplete="current-password" />
          </Form.Item>
        ) : (
          <Form.Item>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="validate_code" noStyle rules={[required(account.rules.code)]}>
                <Input prefix={<SafetyOutlined />} placeholder={account.verifyCode} maxLength={6} />
              </Form.Item>
              <SmsCodeButton
                check={() => mobileSendProblem(form.getFieldValue('mobile'))}
                send={() => accountApi.sendLoginSms(form.getFieldValue('mobile'))}
              />
            </Space.Compact>
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" block loading={submitting} data-testid="login-submit">
          {account.login}
        </Button>
      </Form>
      <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 16 }}>
        <Link to="/register">{account.register}</Link>
        <Link to="/findpsw">{account.findPassword}</Link>
      </div>
    </AuthShell>
  );
}
