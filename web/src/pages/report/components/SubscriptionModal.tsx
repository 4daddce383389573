import { Form, Input, Modal, Radio, Select, Switch } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useProjectTree } from '@/api/projects/queries';
import { centreApi } from '@/api/reports/centre';
import type { SubscriptionRead, SubscriptionSave } from '@/api/schema';
import { useMessage } from '@/components/Feedback';
import { reportCentre as t, reports } from '@/locales/zh-CN';

type Kind = SubscriptionSave['kind'];
type Frequency = SubscriptionSave['frequency'];
type Format = keyof typeof t.formats;
type Group = keyof typeof reports.groups;

interface Values {
  name: string;
  kind: Kind;
  project: number;
  building?: number | null;
  group: Group;
  frequency: Frequency;
  format: Format;
  emails: string[];
  enabled: boolean;
}

const EMAIL = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;

/** The body to save: the report's filters (without a period: each run sets its own). */
export function subscriptionBody(values: Values, sysno: number | null): SubscriptionSave {
  const query: Record<string, unknown> = { project_sysno: values.project, format: values.format };
  if (values.kind === 'energy') {
    query.group = values.group;
    if (values.building) query.building_sysno = values.building;
  }
  return {
    sysno,
    name: values.name.trim(),
    kind: values.kind,
    frequency: values.frequency,
    query,
    emails: values.emails,
    enabled: values.enabled,
  };
}

function initial(editing: SubscriptionRead | null): Partial<Values> {
  if (!editing) return { kind: 'energy', group: 'device', frequency: 'month', format: 'xlsx', emails: [], enabled: true };
  const q = editing.query as { group?: Group; building_sysno?: number | null; format?: Format };
  return {
    name: editing.name,
    kind: editing.kind as Kind,
    project: editing.project_name === null ? undefined : editing.project_sysno, // a lost project must be chosen anew
    building: q.building_sysno ?? null,
    group: q.group ?? 'device',
    frequency: editing.frequency as Frequency,
    format: (editing.format as Format) ?? 'xlsx',
    emails: editing.emails,
    enabled: editing.enabled,
  };
}

/** 新建 / 编辑定时报表. */
export function SubscriptionModal({ editing, onClose, onSaved }: { editing: SubscriptionRead | null; onClose: () => void; onSaved: () => void }) {
  const message = useMessage();
  const [form] = Form.useForm<Values>();
  const tree = useProjectTree();
  const kind = Form.useWatch('kind', form);
  const project = Form.useWatch('project', form);
  const buildings = tree.data?.find((p) => p.sysno === project)?.list_child.filter((c) => c.type === 'building') ?? [];
  const save = useMutation({
    mutationFn: (values: Values) => centreApi.save(subscriptionBody(values, editing?.sysno ?? null)),
    onSuccess: () => {
      void message.success(t.saved);
      onSaved();
    },
  });
  return (
    <Modal
      open
      title={editing ? t.edit : t.add}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      destroyOnHidden
      data-testid="subscription-modal"
    >
      <Form<Values> form={form} layout="vertical" initialValues={initial(editing)} onFinish={(values) => save.mutate(values)}>
        <Form.Item name="name" label={t.name} rules={[{ required: true, whitespace: true, message: t.required(t.name) }, { max: 64 }]}>
          <Input placeholder={t.namePlaceholder} maxLength={64} showCount data-testid="subscription-name" />
        </Form.Item>
        <Form.Item name="kind" label={t.kind} rules={[{ required: true }]}>
          <Select<Kind> options={(Object.keys(t.kinds) as Kind[]).map((k) => ({ value: k, label: t.kinds[k] }))} data-testid="subscription-kind" />
        </Form.Item>
        <Form.Item name="project" label={t.project} rules={[{ required: true, message: reports.projectPlaceholder }]}>
          <Select<number>
            options={tree.data?.map((p) => ({ value: p.sysno, label: p.name }))}
            loading={tree.isPending}
            placeholder={reports.projectPlaceholder}
            onChange={() => form.setFieldValue('building', null)}
            data-testid="subscription-project"
          />
        </Form.Item>
        {kind === 'energy' && (
          <>
            <Form.Item name="building" label={reports.building}>
              <Select<number> allowClear placeholder={reports.allBuildings} options={buildings.map((b) => ({ value: b.sysno, label: b.name }))} />
            </Form.Item>
            <Form.Item name="group" label={t.group}>
              <Radio.Group options={(Object.keys(reports.groups) as Group[]).map((g) => ({ value: g, label: reports.groups[g] }))} />
            </Form.Item>
          </>
        )}
        <Form.Item name="frequency" label={t.frequency} extra={t.frequencyHelp}>
          <Radio.Group options={(Object.keys(t.frequencies) as Frequency[]).map((f) => ({ value: f, label: t.frequencies[f] }))} />
        </Form.Item>
        <Form.Item name="format" label={t.format}>
          <Radio.Group options={(Object.keys(t.formats) as Format[]).map((f) => ({ value: f, label: t.formats[f] }))} />
        </Form.Item>
        <Form.Item
          name="emails"
          label={t.emails}
          extra={t.emailsHelp}
          rules={[
            {
              validator: (_, emails: string[] = []) => {
                const bad = emails.find((e) => !EMAIL.test(e));
                if (bad) return Promise.reject(new Error(t.emailInvalid(bad)));
                return emails.length > 10 ? Promise.reject(new Error(t.emailsHelp)) : Promise.resolve();
              },
            },
          ]}
        >
          <Select mode="tags" open={false} tokenSeparators={[',', '，', ' ', ';']} data-testid="subscription-emails" />
        </Form.Item>
        <Form.Item name="enabled" label={t.enabled} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
