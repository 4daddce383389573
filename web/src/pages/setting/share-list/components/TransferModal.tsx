import { useEffect } from 'react';
import { Alert, Form, Input, Modal, Switch } from 'antd';
import { useMyInfo } from '@/api/account/queries';
import { shareApi, useShareAction } from '@/api/shares/queries';
import { useBrand } from '@/brands/BrandContext';
import { ProjectSelect } from '@/components/ProjectSelect';
import { SmsCodeField } from '@/components/SmsCodeField';
import { useMessage } from '@/components/Feedback';
import { shares } from '@/locales/zh-CN';
import { mobileRule } from '@/utils/phone';

interface Values {
  project_sysno: number;
  mobile: string;
  password: string;
  own_mobile?: string;
  validate_code?: string;
  keep_shares: boolean;
}

/** 转移项目: the password (and an SMS code to the own number where the brand has codes) confirms it. */
export function TransferModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const { flags } = useBrand();
  const me = useMyInfo();
  const message = useMessage();
  const offer = useShareAction(shareApi.transfer);
  const ownMobile = me.data?.mobile;
  useEffect(() => {
    if (open && ownMobile) form.setFieldValue('own_mobile', ownMobile);
  }, [open, ownMobile, form]);

  async function submit() {
    const v = await form.validateFields();
    await offer.mutateAsync({
      project_sysno: v.project_sysno,
      mobile: v.mobile.trim(),
      password: v.password,
      validate_code: flags.SmsCode ? (v.validate_code ?? null) : null,
      keep_shares: v.keep_shares,
    });
    message.success(shares.offered);
    onClose();
  }

  return (
    <Modal
      open={open}
      title={shares.transfer}
      onCancel={onClose}
      onOk={() => submit().catch(() => undefined)}
      confirmLoading={offer.isPending}
      destroyOnHidden
    >
      <Alert type="warning" showIcon message={shares.transferHint} style={{ marginBottom: 16 }} />
      <Form
        form={form}
        layout="vertical"
        name="transfer-form"
        preserve={false}
        initialValues={{ keep_shares: false, own_mobile: me.data?.mobile ?? '' }}
      >
        <Form.Item name="project_sysno" label={shares.project} rules={[{ required: true, message: shares.projectRequired }]}>
          <ProjectSelect width={472} showLoading ownedOnly />
        </Form.Item>
        <Form.Item name="mobile" label={shares.mobile} rules={[{ required: true, message: shares.mobileRequired }, mobileRule()]}>
          <Input maxLength={11} />
        </Form.Item>
        <Form.Item name="keep_shares" label={shares.keepShares} extra={shares.keepSharesHint} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="password" label={shares.password} rules={[{ required: true, message: shares.passwordRequired }]}>
          <Input.Password autoComplete="current-password" maxLength={64} />
        </Form.Item>
        {flags.SmsCode && (
          <>
            <Form.Item name="own_mobile" label={shares.ownMobile}>
              <Input disabled />
            </Form.Item>
            <SmsCodeField htmlFor="transfer-form_validate_code" mobileName="own_mobile" send={shareApi.sendTransferCode} />
          </>
        )}
      </Form>
    </Modal>
  );
}
