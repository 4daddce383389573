import { useEffect } from 'react';
import { Alert, Button, Card, DatePicker, Form, Space, Switch, TimePicker } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { billingApi, useBillingMutation, useCutoffRule } from '@/api/billing/queries';
import type { RuleRead } from '@/api/schema';
import { useMessage } from '@/components/Feedback';
import { billing as t } from '@/locales/zh-CN';
import { ruleBody, type RuleForm } from '../billing';

/** The server keeps at most this many holidays. */
const HOLIDAYS_MAX = 100;

function ruleForm(rule: RuleRead): RuleForm {
  return {
    quiet: rule.quiet_start && rule.quiet_end ? [dayjs(rule.quiet_start, 'HH:mm'), dayjs(rule.quiet_end, 'HH:mm')] : null,
    quiet_weekends: rule.quiet_weekends,
    holidays: rule.holidays.map((d) => dayjs(d, 'YYYY-MM-DD')),
  };
}

/** 断电规则: when the accounts may not be cut (a daily window, weekends, holidays). */
export function RuleTab() {
  const [form] = Form.useForm<RuleForm>();
  const message = useMessage();
  const rule = useCutoffRule();
  const save = useBillingMutation((values: RuleForm) => billingApi.saveRule(ruleBody(values)));
  useEffect(() => {
    if (rule.data) form.setFieldsValue(ruleForm(rule.data));
  }, [rule.data, form]);
  return (
    <Card size="small" loading={rule.isPending} style={{ maxWidth: 640 }} data-testid="cutoff-rule">
      <Alert type="info" showIcon message={t.ruleHint} style={{ marginBottom: 16 }} />
      <Form<RuleForm>
        form={form}
        layout="vertical"
        name="billing-rule"
        initialValues={{ quiet: null, quiet_weekends: false, holidays: [] }}
        onFinish={(values) => save.mutate(values, { onSuccess: () => void message.success(t.ruleSaved) })}
      >
        <Form.Item name="quiet" label={t.quietWindow}>
          <TimePicker.RangePicker format="HH:mm" order={false} placeholder={[t.quietStart, t.quietEnd]} data-testid="rule-window" />
        </Form.Item>
        <Form.Item name="quiet_weekends" label={t.quietWeekends} valuePropName="checked">
          <Switch data-testid="rule-weekends" />
        </Form.Item>
        <Form.Item label={t.holidays}>
          <Form.List name="holidays">
            {(fields, { add, remove }) => (
              <Space orientation="vertical" style={{ width: '100%' }}>
                {fields.map((field) => (
                  <Space key={field.key} align="baseline">
                    <Form.Item name={field.name} noStyle rules={[{ required: true, message: t.choose(t.holidays) }]}>
                      <DatePicker data-testid="rule-holiday" />
                    </Form.Item>
                    <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(field.name)} aria-label="删除" />
                  </Space>
                ))}
                <Button icon={<PlusOutlined />} disabled={fields.length >= HOLIDAYS_MAX} onClick={() => add()} data-testid="rule-add-holiday">
                  {t.addHoliday}
                </Button>
              </Space>
            )}
          </Form.List>
        </Form.Item>
        {/* No submit button: Enter confirming a time or a date in a picker must not save the rule. */}
        <Button type="primary" onClick={() => form.submit()} loading={save.isPending} data-testid="rule-save">
          {t.save}
        </Button>
      </Form>
    </Card>
  );
}
