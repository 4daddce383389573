import { useEffect } from 'react';
import { Button, Checkbox, DatePicker, Form, Input, Modal, Radio, Space, Spin, Switch, TimePicker } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useMutation } from '@tanstack/react-query';
import { controlApi, useControlRefresh, useTask } from '@/api/control/queries';
import type { TaskCreate, TaskRead } from '@/api/schema';
import { DevicePicker } from '@/components/control/DevicePicker';
import { useMessage } from '@/components/Feedback';
import { control, timedTask } from '@/locales/zh-CN';
import { serverNow } from '@/utils/format';

const MAX_TIMES = 8;

interface Values {
  name: string;
  action: 'switch_on' | 'switch_off';
  repeat: 'weekly' | 'once';
  weekdays: number[];
  times: (Dayjs | null)[];
  run_at: Dayjs | null;
  device_sysnos: number[];
  enabled: boolean;
  remark?: string;
}

interface Props {
  open: boolean;
  /** The task to edit (its devices are read here), or null for a new one. */
  sysno: number | null;
  onClose: () => void;
}

function initial(task: TaskRead | null): Values {
  if (!task) {
    return {
      name: '',
      action: 'switch_off',
      repeat: 'weekly',
      weekdays: [1, 2, 3, 4, 5],
      times: [dayjs('23:00', 'HH:mm')],
      run_at: null,
      device_sysnos: [],
      enabled: true,
    };
  }
  return {
    name: task.name,
    action: task.action as Values['action'],
    repeat: task.repeat as Values['repeat'],
    weekdays: task.weekdays,
    times: task.times.map((t) => dayjs(t, 'HH:mm')),
    run_at: task.run_at ? dayjs(task.run_at) : null,
    device_sysnos: task.devices.map((d) => d.sysno),
    enabled: task.enabled === 1,
    remark: task.remark ?? undefined,
  };
}

/** The body the server takes, from the form's values. */
export function toBody(values: Values): TaskCreate {
  return {
    name: values.name,
    action: values.action,
    repeat: values.repeat,
    weekdays: values.repeat === 'weekly' ? values.weekdays : [],
    times: values.repeat === 'weekly' ? values.times.filter((t): t is Dayjs => t !== null).map((t) => t.format('HH:mm')) : [],
    run_at: values.repeat === 'once' && values.run_at ? values.run_at.format('YYYY-MM-DD HH:mm') : null,
    timezone: 'Asia/Shanghai',
    device_sysnos: values.device_sysnos,
    enabled: values.enabled,
    remark: values.remark || null,
  };
}

/** Create or edit a timed task. */
export function TaskModal({ open, sysno, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const loaded = useTask(open ? sysno : null);
  const task = sysno === null ? null : (loaded.data ?? null);
  const loading = sysno !== null && !task;
  const message = useMessage();
  const refresh = useControlRefresh();
  const repeat = Form.useWatch('repeat', form);
  const save = useMutation({
    mutationFn: (values: Values) =>
      sysno !== null ? controlApi.updateTask({ ...toBody(values), sysno }) : controlApi.addTask(toBody(values)),
    onSuccess: () => {
      void message.success(timedTask.saved);
      refresh();
      onClose();
    },
  });

  useEffect(() => {
    if (open && !loading) form.setFieldsValue(initial(task));
  }, [open, loading, task, form]);

  return (
    <Modal
      open={open}
      title={sysno !== null ? timedTask.edit : timedTask.add}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={control.ok}
      cancelText={control.cancel}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: loading }}
      width={640}
      destroyOnHidden
      forceRender
    >
      <Spin spinning={loading}>
      <Form<Values> form={form} layout="vertical" onFinish={(v) => save.mutate(v)} name="task-form">
        <Form.Item name="name" label={timedTask.name} rules={[{ required: true, whitespace: true, message: timedTask.nameRequired }]}>
          <Input maxLength={64} showCount placeholder={timedTask.namePlaceholder} />
        </Form.Item>
        <Space size={32} wrap>
          <Form.Item name="action" label={timedTask.action}>
            <Radio.Group
              optionType="button"
              options={[
                { value: 'switch_on', label: control.switchOn },
                { value: 'switch_off', label: control.switchOff },
              ]}
            />
          </Form.Item>
          <Form.Item name="repeat" label={timedTask.repeat}>
            <Radio.Group
              options={[
                { value: 'weekly', label: timedTask.weekly },
                { value: 'once', label: timedTask.once },
              ]}
            />
          </Form.Item>
          <Form.Item name="enabled" label={timedTask.enabled} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
        {repeat === 'once' ? (
          <Form.Item name="run_at" label={timedTask.runAt} rules={[{ required: true, message: timedTask.runAtRequired }]}>
            <DatePicker
              showTime={{ format: 'HH:mm' }}
              format="YYYY-MM-DD HH:mm"
              disabledDate={(d) => d.isBefore(serverNow(), 'day')}
              // antd's 此刻 is the browser's clock, not the project's time zone.
              showNow={false}
            />
          </Form.Item>
        ) : (
          <>
            <Form.Item name="weekdays" label={timedTask.weekdays} rules={[{ required: true, message: timedTask.weekdaysRequired }]}>
              <Checkbox.Group options={timedTask.weekdayNames.map((label, i) => ({ label, value: i + 1 }))} />
            </Form.Item>
            <Form.Item label={timedTask.times} extra={timedTask.timesHint} required>
              <Form.List
                name="times"
                rules={[
                  {
                    validator: async (_, times: unknown[]) => {
                      if (!times || times.length === 0) throw new Error(timedTask.timesRequired);
                    },
                  },
                ]}
              >
                {(fields, { add, remove }, { errors }) => (
                  <Space wrap>
                    {fields.map((field) => (
                      <Space.Compact key={field.key}>
                        <Form.Item name={field.name} noStyle rules={[{ required: true, message: timedTask.timesRequired }]}>
                          <TimePicker format="HH:mm" minuteStep={1} needConfirm={false} style={{ width: 100 }} />
                        </Form.Item>
                        <Button icon={<DeleteOutlined />} onClick={() => remove(field.name)} aria-label="remove" />
                      </Space.Compact>
                    ))}
                    {fields.length < MAX_TIMES && (
                      <Button type="dashed" icon={<PlusOutlined />} onClick={() => add(dayjs('08:00', 'HH:mm'))}>
                        {timedTask.addTime}
                      </Button>
                    )}
                    <Form.ErrorList errors={errors} />
                  </Space>
                )}
              </Form.List>
            </Form.Item>
          </>
        )}
        <Form.Item
          name="device_sysnos"
          label={timedTask.devices}
          rules={[{ required: true, type: 'array', min: 1, message: timedTask.devicesRequired }]}
        >
          <DevicePicker known={task?.devices} />
        </Form.Item>
        <Form.Item name="remark" label={timedTask.remark}>
          <Input.TextArea maxLength={255} showCount rows={2} />
        </Form.Item>
      </Form>
      </Spin>
    </Modal>
  );
}
