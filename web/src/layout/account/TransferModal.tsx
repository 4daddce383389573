import { Alert, Form, Input } from 'antd';
import { accountApi, useMyInfo } from '@/api/account/queries';
import { TRANSFER_SMS_CURRENT, TRANSFER_SMS_TARGET } from '@/api/account/types';
import { useBrand } from '@/brands/BrandContext';
import { SmsCodeField } from '@/components/SmsCodeField';
import { account } from '@/locales/zh-CN';
import { transferRules, transferSendProblem } from './rules';
import { LogoutModal } from './LogoutModal';

interface Values {
  old_mobile: string;
  new_mobile: string;
  validate_code?: string;
  target_validate_code?: string;
}

/** 转移账号: moves the account to another phone; the server revokes every token on success. */
export function TransferModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { flags } = useBrand();
  const me = useMyInfo();
  const [form] = Form.useForm<Values>();
  const rules = transferRules(flags.SmsCode);

  function save(values: Values) {
    return accountApi.transform({
      old_mobile: values.old_mobile.trim(),
      new_mobile: values.new_mobile.trim(),
      validate_code: flags.SmsCode ? (values.validate_code ?? '') : '',
      target_validate_code: flags.SmsCode ? (values.target_validate_code ?? '') : '',
      is_show_code: flags.SmsCode,
    });
  }

  return (
    <LogoutModal title={account.transferAccount} open={open} onClose={onClose} form={form} save={save} success={account.transferSuccess}>
      <Alert type="info" showIcon title={account.transferHint} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" name="transfer" initialValues={{ old_mobile: me.data?.mobile ?? '' }}>
        <Form.Item label={account.currentAccount} name="old_mobile" rules={rules.old_mobile}>
          <Input maxLength={11} />
        </Form.Item>
        {flags.SmsCode && (
          <SmsCodeField
            label={account.currentCode}
            htmlFor="transfer_validate_code"
            rules={rules.validate_code}
            mobileName="old_mobile"
            testId="send-current-code"
            check={(mobile) => transferSendProblem('current', mobile)}
            send={(mobile) => accountApi.sendTransformSms(mobile, TRANSFER_SMS_CURRENT)}
          />
        )}
        <Form.Item label={account.targetMobile} name="new_mobile" dependencies={['old_mobile']} rules={rules.new_mobile}>
          <Input maxLength={11} />
        </Form.Item>
        {flags.SmsCode && (
          <SmsCodeField
            label={account.targetCode}
            htmlFor="transfer_target_validate_code"
            name="target_validate_code"
            rules={rules.target_validate_code}
            mobileName="new_mobile"
            testId="send-target-code"
            check={(mobile) => transferSendProblem('target', mobile)}
            send={(mobile) => accountApi.sendTransformSms(mobile, TRANSFER_SMS_TARGET)}
          />
        )}
      </Form>
    </LogoutModal>
  );
}
