import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert, Button, Form, Input } from 'antd';
import { accountApi } from '@/api/account/queries';
import { useBrand } from '@/brands/BrandContext';
import { AuthShell } from '@/components/AuthShell';
import { SmsCodeField } from '@/components/SmsCodeField';
import { NewPasswordFields } from '@/layout/account/NewPasswordFields';
import { required } from '@/layout/account/rules';
import { account, common } from '@/locales/zh-CN';
import { useMessage } from '@/components/Feedback';
import { mobileRule } from '@/utils/phone';

interface Values {
  mobile: string;
  validate_code: string;
  new_password: string;
  confirm: string;
}

/** Password recovery needs an SMS code; brands without SMS send the customer to their administrator. */
export default function FindPasswordPage() {
  const message = useMessage();
  const { flags } = useBrand();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const [submitting, setSubmitting] = useState(false);

  async function submit(values: Values) {
    setSubmitting(true);
    try {
      await accountApi.findPassword({
        mobile: values.mobile.trim(),
        validate_code: values.validate_code,
        new_password: values.new_password,
      });
      message.success(account.findPasswordSuccess);
      navigate('/login', { replace: true });
    } catch {
      // Shown by the client.
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <AuthShell title={account.findPassword}>
      {flags.SmsCode ? (
        <Form form={form} name="findpsw" layout="vertical" onFinish={submit}>
          <Form.Item label={account.mobile} name="mobile" rules={[required(account.rules.mobile), mobileRule(account.rules.mobileFormat)]}>
            <Input maxLength={11} />
          </Form.Item>
          <SmsCodeField htmlFor="findpsw_validate_code" send={accountApi.sendFindPasswordSms} />
          <NewPasswordFields />
          <Button type="primary" htmlType="submit" block loading={submitting}>
            {account.findPasswordSubmit}
          </Button>
        </Form>
      ) : (
        <Alert type="info" showIcon title={account.findPasswordNoSms} />
      )}
      <div style={{ marginTop: 16 }}>
        <Link to="/login">{common.backLogin}</Link>
      </div>
    </AuthShell>
  );
}
