import { useEffect } from 'react';
import { Checkbox, Form, InputNumber, Modal, Radio, Select } from 'antd';
import type { BuildingOption, PolicyRead, PolicyWrite } from '@/api/schema';
import { notifier } from '@/api/core/notify';
import { useSavePolicy } from '@/api/loadIdent/queries';
import { useDialogWidth } from '@/hooks/useDialogWidth';
import { loadIdent } from '@/locales/zh-CN';

type Values = Omit<PolicyWrite, 'project_sysno'>;

interface Props {
  /** The policy edited (a building's with `building_sysno`), or a new building override when `adding`. */
  editing: { policy: PolicyRead; adding: boolean } | null;
  categories: string[];
  buildings: BuildingOption[];
  onClose: () => void;
}

/** A project's or building's load policy: forbidden categories, power limit, action and re-closes. */
export function PolicyModal({ editing, categories, buildings, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const save = useSavePolicy();
  const width = useDialogWidth(640);
  const action = Form.useWatch('action', form);
  const p = loadIdent.policy;

  useEffect(() => {
    if (!editing) return;
    const { policy, adding } = editing;
    form.setFieldsValue({
      building_sysno: adding ? undefined : policy.building_sysno,
      forbidden: policy.forbidden as Values['forbidden'],
      power_limit: policy.power_limit,
      action: policy.action as Values['action'],
      reclose_minutes: policy.reclose_minutes,
      max_reclose: policy.max_reclose,
    });
  }, [editing, form]);

  function submit(values: Values) {
    if (!editing) return;
    const body: PolicyWrite = { ...values, project_sysno: editing.policy.project_sysno, building_sysno: values.building_sysno ?? null };
    save.mutate(body, {
      onSuccess: () => {
        notifier().success(p.saved);
        onClose();
      },
    });
  }

  const where = editing?.policy.building_name ?? (editing?.adding ? p.addOverride : p.projectPolicy);
  const scoped = editing !== null && (editing.adding || editing.policy.building_sysno !== null);
  return (
    <Modal
      title={p.editTitle(where)}
      open={editing !== null}
      width={width}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={p.save}
      cancelText={p.cancel}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} name="load-policy" preserve={false}>
        {scoped && (
          <Form.Item name="building_sysno" label={loadIdent.building} rules={[{ required: true, message: p.buildingRequired }]}>
            <Select disabled={!editing?.adding} options={buildings.map((b) => ({ value: b.sysno, label: b.name }))} />
          </Form.Item>
        )}
        <Form.Item name="forbidden" label={p.forbiddenCategories}>
          <Checkbox.Group options={categories.map((c) => ({ value: c, label: c }))} data-testid="policy-forbidden" />
        </Form.Item>
        <Form.Item name="power_limit" label={p.powerLimit} extra={p.powerLimitHelp} rules={[{ required: true, message: p.powerLimitRequired }]}>
          <InputNumber min={100} max={100000} step={100} style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="action" label={p.action}>
          <Radio.Group optionType="button" options={loadIdent.actionOptions.filter((o) => o.value !== 'none').map((o) => ({ ...o }))} />
        </Form.Item>
        <div style={{ display: action === 'trip' ? 'flex' : 'none', gap: 24, flexWrap: 'wrap' }}>
          <Form.Item name="reclose_minutes" label={p.recloseMinutes} extra={p.recloseHelp}>
            <InputNumber min={0} max={1440} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="max_reclose" label={p.maxReclose}>
            <InputNumber min={0} max={20} style={{ width: 160 }} />
          </Form.Item>
        </div>
      </Form>
    </Modal>
  );
}
