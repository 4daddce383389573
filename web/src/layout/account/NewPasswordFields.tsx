import { Form, Input } from 'antd';
import { account } from '@/locales/zh-CN';
import { confirmRule, PASSWORD_MAX, passwordRules, required } from './rules';

interface Props {
  /** The new password's field and label. */
  name?: string;
  label?: string;
  /** The field that repeats it; it must match. */
  confirmName?: string;
}

/** A new password and its confirmation, which must match it. */
export function NewPasswordFields({ name = 'new_password', label = account.newPassword, confirmName = 'confirm' }: Props) {
  return (
    <>
      <Form.Item label={label} name={name} rules={passwordRules}>
        <Input.Password autoComplete="new-password" maxLength={PASSWORD_MAX} showCount />
      </Form.Item>
      <Form.Item
        label={account.confirmPassword}
        name={confirmName}
        dependencies={[name]}
        rules={[required(account.rules.confirmPassword), confirmRule(name)]}
      >
        <Input.Password autoComplete="new-password" maxLength={PASSWORD_MAX} showCount />
      </Form.Item>
    </>
  );
}
