import { Form, Input } from 'antd';
import { accountApi, useMyInfo } from '@/api/account/queries';
import { useBrand } from '@/brands/BrandContext';
import { SmsCodeField } from '@/components/SmsCodeField';
import { account } from '@/locales/zh-CN';
import { NewPasswordFields } from './NewPasswordFields';
import { required } from './rules';
import { LogoutModal } from './LogoutModal';
import { mobileRule } from '@/utils/phone';

interface Values {
  old_password: string;
  new_password: string;
  confirm_password: string;
  mobile?: string;
  validate_code?: string;
}

/** 修改密码: phone and code inputs only for brands with SMS codes; success logs the user out. */
export function PasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { flags } = useBrand();
  const me = useMyInfo();
  const [form] = Form.useForm<Values>();

  function save(values: Values) {
    return accountApi.updatePassword({
      old_password: values.old_password,
      new_password: values.new_password,
      validate_code: flags.SmsCode ? (values.validate_code ?? '') : '',
      mobile: flags.SmsCode ? (values.mobile ?? '') : '',
    });
  }

  return (
    <LogoutModal title={account.changePassword} open={open} onClose={onClose} form={form} save={save} success={account.passwordUpdated}>
      <Form form={form} layout="vertical" name="change-password" initialValues={{ mobile: me.data?.mobile ?? '' }}>
        <Form.Item label={account.oldPassword} name="old_password" rules={[required(account.rules.oldPassword)]}>
          <Input.Password autoComplete="current-password" maxLength={64} />
        </Form.Item>
        <NewPasswordFields confirmName="confirm_password" />
        {flags.SmsCode && (
          <>
            <Form.Item label={account.mobile} name="mobile" rules={[required(account.rules.mobile), mobileRule(account.rules.mobileFormat)]}>
              <Input maxLength={11} />
            </Form.Item>
            <SmsCodeField htmlFor="change-password_validate_code" send={accountApi.sendUpdatePasswordSms} />
          </>
        )}
      </Form>
    </LogoutModal>
  );
}
