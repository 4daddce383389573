import { useEffect } from 'react';
import { Form, Input, Modal, Select, Switch, TimePicker, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useAlarmTypes } from '@/api/alarms/queries';
import { useProjectOptions } from '@/api/projects/queries';
import { smsApi, useSmsMutation } from '@/api/sms/queries';
import type { NotificationRead, NotificationWrite } from '@/api/schema';
import { notifier } from '@/api/core/notify';
import { common, smsSettings as t } from '@/locales/zh-CN';
import { isMobile } from '@/utils/phone';

const CLOCK = 'HH:mm';

interface Values {
  name: string;
  mobiles: string[];
  alarm_types: NotificationRead['alarm_types'];
  project_sysnos: number[];
  quiet?: [Dayjs, Dayjs] | null;
  enabled: boolean;
}

/** The request body of the form: empty lists mean every type and project. */
export function toBody(values: Values): NotificationWrite {
  return {
    name: values.name.trim(),
    mobiles: values.mobiles.map((m) => m.trim()),
    alarm_types: values.alarm_types ?? [],
    project_sysnos: values.project_sysnos ?? [],
    quiet_start: values.quiet?.[0]?.format(CLOCK) ?? null,
    quiet_end: values.quiet?.[1]?.format(CLOCK) ?? null,
    enabled: values.enabled ? 1 : 0,
  };
}

interface Props {
  open: boolean;
  editing: NotificationRead | null;
  onClose: () => void;
}

/** Add or edit one notification rule. */
export function RuleModal({ open, editing, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const types = useAlarmTypes();
  const projects = useProjectOptions();
  const save = useSmsMutation((body: NotificationWrite) =>
    editing ? smsApi.updateRule({ ...body, sysno: editing.sysno }) : smsApi.addRule(body),
  );

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue(
      editing
        ? {
            name: editing.name,
            mobiles: editing.mobiles,
            alarm_types: editing.alarm_types,
            project_sysnos: editing.project_sysnos,
            quiet: editing.quiet_start && editing.quiet_end ? [dayjs(editing.quiet_start, CLOCK), dayjs(editing.quiet_end, CLOCK)] : null,
            enabled: editing.enabled === 1,
          }
        : { name: '', mobiles: [], alarm_types: [], project_sysnos: [], quiet: null, enabled: true },
    );
  }, [open, editing, form]);

  return (
    <Modal
      title={editing ? t.edit : t.add}
      open={open}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={common.confirm}
      cancelText={common.cancel}
      confirmLoading={save.isPending}
      destroyOnHidden
      width={560}
    >
      <Form
        form={form}
        layout="vertical"
        name="sms-rule"
        onFinish={(values) =>
          save.mutate(toBody(values), {
            onSuccess: () => {
              notifier().success(common.saveSuccess);
              onClose();
            },
          })
        }
      >
        <Form.Item name="name" label={t.name} rules={[{ required: true, whitespace: true, message: t.required(t.name) }, { max: 64 }]}>
          <Input placeholder={t.namePlaceholder} maxLength={64} showCount />
        </Form.Item>
        <Form.Item
          name="mobiles"
          label={t.mobiles}
          rules={[
            { required: true, message: t.required(t.mobiles) },
            {
              validator: (_, value: string[] = []) =>
                value.every((m) => isMobile(m)) && value.length <= 10 ? Promise.resolve() : Promise.reject(new Error(t.mobilesInvalid)),
            },
          ]}
        >
          <Select mode="tags" placeholder={t.mobilesPlaceholder} tokenSeparators={[',', '，', ' ']} open={false} />
        </Form.Item>
        <Form.Item name="alarm_types" label={t.alarmTypes}>
          <Select mode="multiple" allowClear placeholder={t.allTypes} options={(types.data ?? []).map((x) => ({ value: x.value, label: x.label }))} />
        </Form.Item>
        <Form.Item
          name="project_sysnos"
          label={t.projects}
          extra={editing?.lost_projects ? <Typography.Text type="warning">{t.lostOnSave(editing.lost_projects)}</Typography.Text> : undefined}
        >
          <Select
            mode="multiple"
            allowClear
            placeholder={t.allProjects}
            options={(projects.data ?? []).map((p) => ({ value: p.sysno, label: p.name }))}
          />
        </Form.Item>
        <Form.Item name="quiet" label={t.quiet}>
          <TimePicker.RangePicker format={CLOCK} order={false} placeholder={[t.quietNone, t.quietNone]} />
        </Form.Item>
        <Form.Item name="enabled" label={t.enabled} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
