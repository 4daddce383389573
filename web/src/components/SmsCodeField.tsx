import { Form, Input, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import { mobileSendProblem, required } from '@/layout/account/rules';
import { account } from '@/locales/zh-CN';
import { SmsCodeButton } from '@/components/SmsCodeButton';

interface Props {
  /** The label's `for`: the form's name, "_", the field name (antd's input id). */
  htmlFor: string;
  label?: string;
  name?: string;
  rules?: Rule[];
  /** The phone field the code is sent to. */
  mobileName?: string;
  /** Why the code cannot be sent yet; by default, a missing phone. */
  check?: (mobile: string | undefined) => string | null;
  send: (mobile: string) => Promise<unknown>;
  testId?: string;
}

/** A required 6-digit SMS code input joined to its "send code" button with the resend countdown. */
export function SmsCodeField({
  htmlFor,
  label = account.verifyCode,
  name = 'validate_code',
  rules = [required(account.rules.code)],
  mobileName = 'mobile',
  check = (mobile) => mobileSendProblem(mobile),
  send,
  testId,
}: Props) {
  const form = Form.useFormInstance();
  return (
    <Form.Item label={label} required htmlFor={htmlFor}>
      <Space.Compact style={{ width: '100%' }}>
        <Form.Item name={name} noStyle rules={rules}>
          <Input maxLength={6} />
        </Form.Item>
        <SmsCodeButton
          testId={testId}
          check={() => check(form.getFieldValue(mobileName))}
          send={() => send(form.getFieldValue(mobileName))}
        />
      </Space.Compact>
    </Form.Item>
  );
}
