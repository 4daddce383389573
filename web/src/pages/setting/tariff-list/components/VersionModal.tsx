import { useEffect } from 'react';
import { Form, Modal } from 'antd';
import type { Dayjs } from 'dayjs';
import { useAddTariffVersion } from '@/api/energy/queries';
import type { PlanRead } from '@/api/schema';
import { useMessage } from '@/components/Feedback';
import { useDialogWidth } from '@/hooks/useDialogWidth';
import { tariffs } from '@/locales/zh-CN';
import { serverNow } from '@/utils/format';
import { draftFrom, toVersionWrite, versionProblems, type VersionDraft } from '../version';
import { VersionFields } from './VersionFields';

interface Props {
  plan: PlanRead | null;
  onClose: () => void;
}

/** 新增版本: new prices of a plan from a date after today, starting from a copy of its newest version. */
export function VersionModal({ plan, onClose }: Props) {
  const [form] = Form.useForm<VersionDraft>();
  const message = useMessage();
  const width = useDialogWidth(880);
  const add = useAddTariffVersion();
  const tomorrow = serverNow().add(1, 'day').startOf('day');
  // One form serves every opening: start each from a copy of the plan's newest version. Set, not left
  // to initialValues, as the dialog's content may mount after this effect has run.
  useEffect(() => {
    if (!plan) return;
    form.resetFields();
    form.setFieldsValue(draftFrom(plan.versions[0], serverNow().add(1, 'day').startOf('day')));
  }, [plan, form]);

  async function submit() {
    if (!plan) return;
    await form.validateFields();
    const draft = form.getFieldsValue(true);
    const problems = versionProblems(draft);
    if (problems.length > 0) {
      message.error(problems[0]);
      return;
    }
    await add.mutateAsync({ plan_sysno: plan.sysno, ...toVersionWrite(draft) });
    message.success(tariffs.versionAdded);
    onClose();
  }

  return (
    <Modal
      open={plan !== null}
      title={plan ? `${plan.name} · ${tariffs.addVersion}` : tariffs.addVersion}
      onCancel={onClose}
      onOk={() => submit().catch(() => undefined)}
      confirmLoading={add.isPending}
      width={width}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="tariff-version" data-testid="version-modal">
        <VersionFields
          prefix={[]}
          disabledDate={(day: Dayjs) => !day.isAfter(serverNow(), 'day')}
          effectiveHint={tariffs.futureHint(tomorrow.format('YYYY-MM-DD'))}
        />
      </Form>
    </Modal>
  );
}
