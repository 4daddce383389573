import { useMemo } from 'react';
import { Col, Form, Input, InputNumber, Modal, Radio, Row, Select, Switch } from 'antd';
import { billingApi, useBillingMutation, useBillingOptions } from '@/api/billing/queries';
import { useControllableDevices } from '@/api/control/queries';
import type { AccountRead } from '@/api/schema';
import { deviceOptions } from '@/components/control/DevicePicker';
import { useMessage } from '@/components/Feedback';
import { useDialogWidth } from '@/hooks/useDialogWidth';
import { billing as t, common } from '@/locales/zh-CN';
import { MOBILE_LENGTH, mobileRule } from '@/utils/phone';
import {
  accountForm,
  createBody,
  MONEY_MAX,
  NEW_ACCOUNT,
  optionList,
  PRICE_MAX,
  TEXT_MAX,
  updateBody,
  type AccountForm,
  type Method,
} from '../billing';

interface Props {
  /** The account to edit, 'new' to open one, null when closed. */
  editing: AccountRead | 'new' | null;
  onClose: () => void;
}

/** One device, chosen among the breakers the customer may switch (an account cuts and restores it). */
function DeviceSelect({ value, onChange }: { value?: number; onChange?: (v: number) => void }) {
  const devices = useControllableDevices('');
  const options = useMemo(() => deviceOptions(devices.data ?? []), [devices.data]);
  return (
    <Select<number>
      value={value}
      onChange={onChange}
      loading={devices.isPending}
      options={options}
      placeholder={t.devicePlaceholder}
      showSearch={{
        filterOption: (input, option) =>
          String((option as { search?: string } | undefined)?.search ?? '').includes(input.trim().toLowerCase()),
      }}
      data-testid="account-device"
    />
  );
}

/** 开户 / 编辑: the holder, how the account is charged, its warning and cut-off levels. */
export function AccountModal({ editing, onClose }: Props) {
  const [form] = Form.useForm<AccountForm>();
  const message = useMessage();
  const options = useBillingOptions();
  const width = useDialogWidth(640);
  const creating = editing === 'new';
  const pricing = Form.useWatch('pricing', form);
  const save = useBillingMutation((values: AccountForm) =>
    editing === 'new' || editing === null ? billingApi.addAccount(createBody(values)) : billingApi.updateAccount(updateBody(editing.sysno, values)),
  );

  const money = (name: keyof AccountForm, label: string, min: number, testId?: string) => (
    <Form.Item name={name} label={label} rules={[{ required: true, message: t.required(label) }]}>
      <InputNumber min={min} max={MONEY_MAX} precision={2} style={{ width: '100%' }} data-testid={testId} />
    </Form.Item>
  );

  return (
    <Modal
      title={creating ? t.openTitle : t.editTitle}
      open={editing !== null}
      width={width}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={common.confirm}
      cancelText={common.cancel}
      confirmLoading={save.isPending}
      destroyOnHidden
      data-testid="account-modal"
    >
      <Form
        form={form}
        layout="vertical"
        name="billing-account"
        clearOnDestroy
        initialValues={editing === 'new' || editing === null ? NEW_ACCOUNT : accountForm(editing)}
        onFinish={(values) =>
          save.mutate(values, {
            onSuccess: () => {
              void message.success(creating ? t.opened : t.saved);
              onClose();
            },
          })
        }
      >
        {creating ? (
          <Form.Item name="device_sysno" label={t.device} rules={[{ required: true, message: t.choose(t.device) }]}>
            <DeviceSelect />
          </Form.Item>
        ) : (
          editing && <Form.Item label={t.device}>{`${editing.device_name}（${editing.gateway_sn} #${editing.device_id}）`}</Form.Item>
        )}
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="holder_name" label={t.holderName} rules={[{ required: true, whitespace: true, message: t.required(t.holderName) }]}>
              <Input maxLength={TEXT_MAX.holder} showCount data-testid="account-holder" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="holder_mobile" label={t.holderMobile} rules={[mobileRule()]}>
              <Input maxLength={MOBILE_LENGTH} showCount inputMode="numeric" data-testid="account-mobile" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="notify_holder" valuePropName="checked" label={t.notifyHolder}>
          <Switch />
        </Form.Item>
        <Form.Item name="charge_type" label={t.chargeType} rules={[{ required: true }]}>
          <Radio.Group options={optionList<number>(options.data?.charge_type)} />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="pricing" label={t.pricing}>
              <Radio.Group
                options={[
                  { value: 'plan', label: t.pricingPlan },
                  { value: 'flat', label: t.pricingFlat },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            {pricing === 'flat' && (
              <Form.Item name="flat_price" label={t.flatPrice} rules={[{ required: true, message: t.required(t.flatPrice) }]}>
                <InputNumber min={0.0001} max={PRICE_MAX} precision={4} step={0.1} style={{ width: '100%' }} />
              </Form.Item>
            )}
          </Col>
        </Row>
        <Row gutter={16}>
          <Col xs={24} sm={8}>
            {money('warn_balance', t.warnBalance, 0)}
          </Col>
          <Col xs={24} sm={8}>
            {money('cutoff_balance', t.cutoffBalance, -MONEY_MAX)}
          </Col>
          <Col xs={24} sm={8}>
            {money('overdraft_limit', t.overdraftLimit, 0)}
          </Col>
        </Row>
        <Form.Item name="keep_power" valuePropName="checked" label={t.keepPower} extra={t.keepPowerHint}>
          <Switch data-testid="account-keep-power" />
        </Form.Item>
        {creating && (
          <Row gutter={16}>
            <Col xs={24} sm={12}>
              {money('opening_balance', t.openingBalance, 0, 'account-opening')}
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="method" label={t.method}>
                <Select options={optionList<Method>(options.data?.method)} />
              </Form.Item>
            </Col>
          </Row>
        )}
        <Form.Item name="remark" label={t.remark}>
          <Input.TextArea maxLength={TEXT_MAX.remark} showCount autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
