import { useEffect } from 'react';
import { Button, Col, Form, Input, InputNumber, Row, Typography } from 'antd';
import type { DeviceRead } from '@/api/devices/types';
import { useUpdateDevice } from '@/api/devices/queries';
import { monitoring } from '@/locales/zh-CN';
import { rangeError, SETTING_FIELDS, settingsOf, toUpdate, voltageOrderError, type SettingsForm } from '../settings';
import { useMessage } from '@/components/Feedback';

/** Name, rated current and alarm thresholds of one device. */
export function DeviceSettingsForm({ device }: { device: DeviceRead }) {
  const [form] = Form.useForm<SettingsForm>();
  const message = useMessage();
  const update = useUpdateDevice();

  // Fill the form when another device is opened, not on every live refresh of the same one.
  useEffect(() => {
    form.setFieldsValue(settingsOf(device));
  }, [device.sysno, form]);

  async function save(values: SettingsForm) {
    await update.mutateAsync(toUpdate(device.sysno, values));
    message.success(monitoring.saved);
  }

  return (
    <Form form={form} layout="vertical" onFinish={(v) => save(v).catch(() => undefined)} name="device-settings">
      <Form.Item name="name" label={monitoring.deviceName} rules={[{ required: true, whitespace: true, message: monitoring.nameRequired }, { max: 64 }]}>
        <Input maxLength={64} />
      </Form.Item>
      <Row gutter={12}>
        {SETTING_FIELDS.map((field) => (
          <Col xs={24} sm={12} key={field.key}>
            <Form.Item
              name={field.key}
              label={field.label}
              dependencies={field.key === 'under_voltage' ? ['over_voltage'] : undefined}
              rules={[
                {
                  validator: async (_, value: number | null | undefined) => {
                    const error =
                      rangeError(field, value) ??
                      (field.key === 'under_voltage' ? voltageOrderError(form.getFieldsValue()) : null);
                    if (error) throw new Error(error);
                  },
                },
              ]}
            >
              <InputNumber style={{ width: '100%' }} step={field.step} suffix={field.unit} placeholder={`${field.min}–${field.max}`} />
            </Form.Item>
          </Col>
        ))}
      </Row>
      <Typography.Paragraph type="secondary">{monitoring.thresholdsHint}</Typography.Paragraph>
      <Button type="primary" htmlType="submit" loading={update.isPending}>
        {monitoring.save}
      </Button>
    </Form>
  );
}
