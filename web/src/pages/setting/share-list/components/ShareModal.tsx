import { DatePicker, Form, Input, Modal, Radio, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useProject } from '@/api/projects/queries';
import { shareApi, useShareAction } from '@/api/shares/queries';
import { ProjectSelect } from '@/components/ProjectSelect';
import { useMessage } from '@/components/Feedback';
import { shares } from '@/locales/zh-CN';
import { mobileRule } from '@/utils/phone';

interface Values {
  project_sysno: number;
  mobile: string;
  permission: 1 | 2;
  building_sysnos?: number[];
  expire?: Dayjs | null;
  remark?: string;
}

/** Invite an account by mobile number to one of the caller's projects. */
export function ShareModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const message = useMessage();
  const add = useShareAction(shareApi.add);
  const project = useProject(Form.useWatch('project_sysno', form));

  async function submit() {
    const v = await form.validateFields();
    await add.mutateAsync({
      project_sysno: v.project_sysno,
      mobile: v.mobile.trim(),
      permission: v.permission,
      building_sysnos: v.building_sysnos?.length ? v.building_sysnos : null,
      expire_date: v.expire ? v.expire.format('YYYY-MM-DD') : null,
      remark: v.remark?.trim() || null,
    });
    message.success(shares.invited);
    onClose();
  }

  return (
    <Modal
      open={open}
      title={shares.add}
      onCancel={onClose}
      onOk={() => submit().catch(() => undefined)}
      confirmLoading={add.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="share-form" preserve={false} initialValues={{ permission: 1 }}>
        <Form.Item name="project_sysno" label={shares.project} rules={[{ required: true, message: shares.projectRequired }]}>
          <ProjectSelect width={472} showLoading ownedOnly onChange={() => form.setFieldValue('building_sysnos', [])} />
        </Form.Item>
        <Form.Item name="mobile" label={shares.mobile} rules={[{ required: true, message: shares.mobileRequired }, mobileRule()]}>
          <Input maxLength={11} />
        </Form.Item>
        <Form.Item name="permission" label={shares.permission}>
          <Radio.Group
            options={[
              { value: 1, label: shares.view },
              { value: 2, label: shares.control },
            ]}
          />
        </Form.Item>
        <Form.Item name="building_sysnos" label={shares.buildings} extra={shares.buildingsHint}>
          <Select
            mode="multiple"
            allowClear
            placeholder={shares.wholeProject}
            options={(project.data?.list_child ?? []).map((b) => ({ value: b.sysno, label: b.name }))}
          />
        </Form.Item>
        <Form.Item name="expire" label={shares.expireDate} extra={shares.expireHint}>
          <DatePicker style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="remark" label={shares.remark}>
          <Input maxLength={255} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
