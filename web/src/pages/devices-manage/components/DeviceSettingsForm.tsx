import { useEffect } from 'react';
import { Button, Col, Form, Input, InputNumber, Popconfirm, Row, Space, Typography } from 'antd';
import type { DeviceRead } from '@/api/schema';
import { useDeleteDevice, useUpdateDevice } from '@/api/devices/queries';
import { monitoring } from '@/locales/zh-CN';
import { rangeError, SETTING_FIELDS, settingsOf, toUpdate, voltageOrderError, type SettingsForm } from '../settings';
import { useMessage } from '@/components/Feedback';

/** Name, rated current and alarm thresholds of one device; also where it is deleted. */
export function DeviceSettingsForm({ device, onDeleted }: { device: DeviceRead; onDeleted: () => void }) {
  const [form] = Form.useForm<SettingsForm>();
  const message = useMessage();
  const update = useUpdateDevice();
  const remove = useDeleteDevice();

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
        <Input maxLength={64} showCount />
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
      <Space>
        <Button type="primary" htmlType="submit" loading={update.isPending}>
          {monitoring.save}
        </Button>
        <Popconfirm
          title={monitoring.deleteConfirm(device.name)}
          okButtonProps={{ danger: true }}
          onConfirm={() =>
            remove
              .mutateAsync(device.sysno)
              .then(() => {
                message.success(monitoring.deleted);
                onDeleted();
              })
              .catch(() => undefined)
          }
        >
          <Button danger>{monitoring.deleteDevice}</Button>
        </Popconfirm>
      </Space>
    </Form>
  );
}
