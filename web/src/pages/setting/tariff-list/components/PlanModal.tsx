import { useEffect, useState } from 'react';
import { Button, Collapse, Divider, Form, Input, Modal, Popconfirm, Space, Switch, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useAddTariffPlan, useDeleteTariffVersion, useTariffPlan, useUpdateTariffPlan } from '@/api/energy/queries';
import type { PlanRead } from '@/api/schema';
import { useMessage } from '@/components/Feedback';
import { useDialogWidth } from '@/hooks/useDialogWidth';
import { tariffs } from '@/locales/zh-CN';
import { serverNow } from '@/utils/format';
import { draftFrom, toVersionWrite, versionInForce, versionProblems, type VersionDraft } from '../version';
import { VersionFields } from './VersionFields';
import { VersionModal } from './VersionModal';
import { VersionView } from './VersionView';
import styles from '../tariff.module.css';

interface Props {
  open: boolean;
  /** The plan being edited, or null for a new one. */
  plan: PlanRead | null;
  onClose: () => void;
}

interface Values {
  name: string;
  remark?: string | null;
  is_default: boolean;
  version: VersionDraft;
}

/** A plan's versions, newest first: the one in force opened; those not begun can be withdrawn. */
function Versions({ plan }: { plan: PlanRead }) {
  const message = useMessage();
  const remove = useDeleteTariffVersion();
  const [adding, setAdding] = useState(false);
  const today = serverNow().format('YYYY-MM-DD');
  const inForce = versionInForce(plan.versions, today);
  return (
    <div data-testid="plan-versions">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }}>
        <Typography.Text strong>{tariffs.versionList}</Typography.Text>
        <Button icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          {tariffs.addVersion}
        </Button>
      </Space>
      <Collapse
        size="small"
        defaultActiveKey={inForce ? [String(inForce.sysno)] : []}
        items={plan.versions.map((version) => ({
          key: String(version.sysno),
          label: (
            <span className={styles.versionHead}>
              {tariffs.from(version.effective_date)}
              {version.editable ? <Tag color="blue">{tariffs.notYet}</Tag> : <Tag>{tariffs.inForce}</Tag>}
            </span>
          ),
          // The server keeps the rule (only versions not begun); one that has begun is refused with its message.
          // Clicks here, the confirmation's own included (React bubbles them out of its portal), must not fold the panel.
          extra: (
            <span onClick={(e) => e.stopPropagation()}>
              <Popconfirm
                title={tariffs.versionDeleteConfirm(version.effective_date)}
                description={version.editable ? undefined : tariffs.lockedHint}
                onConfirm={() =>
                  remove
                    .mutateAsync(version.sysno)
                    .then(() => message.success(tariffs.versionDeleted))
                    .catch(() => undefined)
                }
              >
                <Button size="small" type="link" danger data-testid={`delete-version-${version.effective_date}`}>
                  {tariffs.delete}
                </Button>
              </Popconfirm>
            </span>
          ),
          children: <VersionView version={version} />,
        }))}
      />
      <VersionModal plan={adding ? plan : null} onClose={() => setAdding(false)} />
    </div>
  );
}

/** Creates a plan with its first version, or edits a plan's name, remark and default flag and manages its versions. */
export function PlanModal({ open, plan, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const message = useMessage();
  const width = useDialogWidth(plan ? 820 : 900);
  const add = useAddTariffPlan();
  const update = useUpdateTariffPlan();
  const initial: Partial<Values> = plan
    ? { name: plan.name, remark: plan.remark, is_default: plan.is_default }
    : { name: '', remark: '', is_default: false, version: draftFrom(undefined, serverNow().startOf('day')) };
  // One form serves every opening: start each from this opening's values, not the last one's. They
  // are set, not left to initialValues, as the dialog's content may mount after this effect has run.
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(initial);
    // `initial` follows from `plan`.
  }, [open, plan, form]);
  // The plan as it is now, so versions added or withdrawn here show at once.
  const fresh = useTariffPlan(open && plan ? plan.sysno : null).data ?? plan;

  async function submit() {
    await form.validateFields();
    const values = form.getFieldsValue(true);
    const common = { name: values.name.trim(), remark: values.remark?.trim() || null, is_default: values.is_default };
    if (plan) {
      await update.mutateAsync({ sysno: plan.sysno, ...common });
    } else {
      const problems = versionProblems(values.version);
      if (problems.length > 0) {
        message.error(problems[0]);
        return;
      }
      await add.mutateAsync({ ...common, version: toVersionWrite(values.version) });
    }
    message.success(tariffs.saved);
    onClose();
  }

  return (
    <Modal
      open={open}
      title={plan ? tariffs.edit : tariffs.add}
      onCancel={onClose}
      onOk={() => submit().catch(() => undefined)}
      confirmLoading={add.isPending || update.isPending}
      width={width}
      destroyOnHidden
    >
      <div data-testid="plan-modal">
        <Form form={form} layout="vertical" name="tariff-plan">
          <Form.Item name="name" label={tariffs.name} rules={[{ required: true, whitespace: true, message: tariffs.nameRequired }, { max: 64 }]}>
            <Input maxLength={64} showCount />
          </Form.Item>
          <Form.Item name="remark" label={tariffs.remark} rules={[{ max: 500 }]}>
            <Input.TextArea rows={2} maxLength={500} showCount />
          </Form.Item>
          <Form.Item name="is_default" label={tariffs.isDefault} valuePropName="checked" extra={tariffs.defaultHint}>
            <Switch />
          </Form.Item>
          {!plan && (
            <>
              <Divider titlePlacement="start">{tariffs.firstVersion}</Divider>
              <VersionFields prefix={['version']} />
            </>
          )}
        </Form>
        {fresh && plan && (
          <>
            <Divider />
            <Versions plan={fresh} />
          </>
        )}
      </div>
    </Modal>
  );
}
