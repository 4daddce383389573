import { Button, DatePicker, Divider, Form, Input, InputNumber, Modal, Popconfirm, Switch, Typography } from 'antd';
import { ListTable } from '@/components/ListTable';
import type { Dayjs } from 'dayjs';
import { useAddMeterChange, useDeleteMeterChange, useMeterChanges, useSetIncomingMain } from '@/api/energy/queries';
import type { DeviceEnergyRow, MeterChangeRead } from '@/api/schema';
import { useMessage } from '@/components/Feedback';
import { useDialogWidth } from '@/hooks/useDialogWidth';
import { energy } from '@/locales/zh-CN';
import { SERVER_TIME_FORMAT } from '@/utils/listQuery';
import { serverNow } from '@/utils/format';
import { formatNumber } from '../chartOption';

interface Props {
  device: DeviceEnergyRow | null;
  onClose: () => void;
}

interface ChangeValues {
  change_time: Dayjs;
  old_final: number;
  new_initial: number;
  remark?: string;
}

const kwh = (v: number) => formatNumber(v, 3);

/** 计量设置 of a device: whether it is its building's 总进线, and its meter changes (换表). */
export function MeteringModal({ device, onClose }: Props) {
  const message = useMessage();
  const width = useDialogWidth(760);
  const [form] = Form.useForm<ChangeValues>();
  const changes = useMeterChanges(device?.device_sysno ?? null);
  const setMain = useSetIncomingMain();
  const add = useAddMeterChange();
  const remove = useDeleteMeterChange();

  async function submit(values: ChangeValues) {
    if (!device) return;
    await add.mutateAsync({
      device_sysno: device.device_sysno,
      change_time: values.change_time.format(SERVER_TIME_FORMAT),
      old_final: values.old_final,
      new_initial: values.new_initial,
      remark: values.remark?.trim() || null,
    });
    message.success(energy.changeAdded);
    form.resetFields();
  }

  return (
    <Modal open={device !== null} title={device ? energy.meteringTitle(device.name) : ''} onCancel={onClose} footer={null} width={width} destroyOnHidden>
      {device && (
        <div data-testid="metering-modal">
          <Typography.Title level={5}>{energy.mainSection}</Typography.Title>
          <Typography.Paragraph type="secondary">{energy.mainExplain}</Typography.Paragraph>
          {device.building_name ? (
            <label style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
              <Switch
                checked={device.incoming_main}
                loading={setMain.isPending}
                onChange={(on) =>
                  setMain
                    .mutateAsync({ device_sysno: device.device_sysno, incoming_main: on })
                    .then(() => message.success(energy.mainSaved))
                    .catch(() => undefined)
                }
                data-testid="incoming-main-switch"
              />
              {energy.mainSwitch(device.building_name)}
            </label>
          ) : (
            <Typography.Text type="warning">{energy.mainNoBuilding}</Typography.Text>
          )}
          <Divider />
          <Typography.Title level={5}>{energy.changesSection}</Typography.Title>
          <ListTable<MeterChangeRead>
            tableId="energy-metering"
            size="small"
            rowKey="sysno"
            loading={changes.isFetching}
            dataSource={changes.data ?? []}
            pagination={false}
            locale={{ emptyText: energy.changesEmpty }}
            style={{ marginBottom: 16 }}
            columns={[
              { title: energy.changeTime, dataIndex: 'change_time', width: 160 },
              { title: energy.oldFinal, dataIndex: 'old_final', width: 120, align: 'right', render: kwh },
              { title: energy.newInitial, dataIndex: 'new_initial', width: 120, align: 'right', render: kwh },
              { title: energy.remark, dataIndex: 'remark', ellipsis: true, render: (v: string | null) => v ?? '' },
              {
                title: energy.actions,
                key: 'actions',
                width: 70,
                render: (_, row) => (
                  <Popconfirm
                    title={energy.changeDeleteConfirm}
                    onConfirm={() =>
                      remove
                        .mutateAsync(row.sysno)
                        .then(() => message.success(energy.changeDeleted))
                        .catch(() => undefined)
                    }
                  >
                    <Button type="link" size="small" danger>
                      {energy.delete}
                    </Button>
                  </Popconfirm>
                ),
              },
            ]}
          />
          <Form<ChangeValues> form={form} layout="vertical" name="meter-change" onFinish={(v) => submit(v).catch(() => undefined)}>
            <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(160px, 1fr))', columnGap: 12 }}>
              <Form.Item name="change_time" label={energy.changeTime} rules={[{ required: true, message: energy.changeTimeRequired }]}>
                <DatePicker showTime showNow={false} style={{ width: '100%' }} disabledDate={(d) => d.isAfter(serverNow(), 'day')} />
              </Form.Item>
              <Form.Item name="old_final" label={energy.oldFinal} rules={[{ required: true, message: energy.oldFinalRequired }]}>
                <InputNumber min={0} max={1e12} step={0.001} style={{ width: '100%' }} />
              </Form.Item>
              <Form.Item name="new_initial" label={energy.newInitial} rules={[{ required: true, message: energy.newInitialRequired }]}>
                <InputNumber min={0} max={1e12} step={0.001} style={{ width: '100%' }} />
              </Form.Item>
            </div>
            <Form.Item name="remark" label={energy.remark} rules={[{ max: 500 }]}>
              <Input maxLength={500} showCount />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={add.isPending}>
              {energy.addChange}
            </Button>
          </Form>
        </div>
      )}
    </Modal>
  );
}
