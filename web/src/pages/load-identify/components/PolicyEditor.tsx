import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Empty, Form, Modal, Popconfirm, Select, Space, Tag } from 'antd';
import { ListTable } from '@/components/ListTable';
import type { PolicyRead, WhitelistRead, WhitelistWrite } from '@/api/schema';
import { notifier } from '@/api/core/notify';
import { useLoadPolicy, useRemovePolicy, useSaveWhitelist } from '@/api/loadIdent/queries';
import { useProjectDevices } from '@/api/devices/queries';
import { useProjectOptions } from '@/api/projects/queries';
import { loadIdent } from '@/locales/zh-CN';
import { PolicyModal } from './PolicyModal';

const p = loadIdent.policy;

function actionText(policy: PolicyRead): string {
  const name = loadIdent.actionOptions.find((o) => o.value === policy.action)?.label ?? policy.action;
  if (policy.action !== 'trip') return name;
  return policy.reclose_minutes > 0 && policy.max_reclose > 0
    ? `${name}，${p.minutes(policy.reclose_minutes)}后自动合闸，每日最多 ${p.times(policy.max_reclose)}`
    : `${name}，${p.noReclose}`;
}

function PolicyView({ policy }: { policy: PolicyRead }) {
  return (
    <Descriptions size="small" column={1}>
      <Descriptions.Item label={p.forbiddenCategories}>
        <Space size={[4, 4]} wrap>
          {policy.forbidden.map((c) => (
            <Tag key={c} color="red">
              {c}
            </Tag>
          ))}
        </Space>
      </Descriptions.Item>
      <Descriptions.Item label={p.powerLimit}>{policy.power_limit}</Descriptions.Item>
      <Descriptions.Item label={p.action}>{actionText(policy)}</Descriptions.Item>
    </Descriptions>
  );
}

/** 识别策略: the project's policy, its buildings' overrides and its devices' whitelists. */
export function PolicyEditor() {
  const projects = useProjectOptions();
  const [chosen, setChosen] = useState<number | null>(null);
  const project = chosen ?? projects.data?.[0]?.sysno ?? null;
  const setting = useLoadPolicy(project);
  const devices = useProjectDevices(project === null ? [] : [project]).get(project ?? 0) ?? [];
  const remove = useRemovePolicy();
  const saveWhitelist = useSaveWhitelist();
  const [editing, setEditing] = useState<{ policy: PolicyRead; adding: boolean } | null>(null);
  const [whitelisting, setWhitelisting] = useState<WhitelistRead | 'new' | null>(null);
  const [form] = Form.useForm<{ device_sysno: number; appliances: string[] }>();
  const data = setting.data;
  const editable = data?.can_edit ?? false;

  function saveList(values: { device_sysno: number; appliances: string[] }) {
    saveWhitelist.mutate({ device_sysno: values.device_sysno, appliances: (values.appliances ?? []) as WhitelistWrite['appliances'] }, {
      onSuccess: () => {
        notifier().success(p.saved);
        setWhitelisting(null);
      },
    });
  }

  return (
    <div data-testid="load-policy">
      <Space wrap style={{ marginBottom: 16 }}>
        <span>{loadIdent.project}</span>
        <Select style={{ width: 200 }} value={project ?? undefined} placeholder={p.pickProject} onChange={setChosen} options={(projects.data ?? []).map((o) => ({ value: o.sysno, label: o.name }))} />
      </Space>
      {data && !editable && <Alert type="info" showIcon message={p.readOnly} style={{ marginBottom: 16 }} />}
      {!data ? (
        <Card loading={setting.isFetching}>{project === null && <Empty />}</Card>
      ) : (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Card
            size="small"
            title={
              <Space>
                {p.projectPolicy}
                {data.project.is_default && <Tag>{p.defaultTag}</Tag>}
              </Space>
            }
            extra={editable && <Button type="link" onClick={() => setEditing({ policy: data.project, adding: false })} data-testid="policy-edit-project">{p.edit}</Button>}
          >
            <PolicyView policy={data.project} />
          </Card>
          <Card size="small" title={p.buildingPolicies} extra={editable && <Button type="link" onClick={() => setEditing({ policy: { ...data.project, building_sysno: null, building_name: null }, adding: true })}>{p.addOverride}</Button>}>
            {data.buildings.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={p.noOverrides} />
            ) : (
              data.buildings.map((b) => (
                <Card
                  key={b.building_sysno}
                  type="inner"
                  size="small"
                  title={b.building_name}
                  style={{ marginBottom: 12 }}
                  extra={
                    editable && (
                      <Space size={0}>
                        <Button type="link" onClick={() => setEditing({ policy: b, adding: false })}>{p.edit}</Button>
                        <Popconfirm title={p.removeConfirm} onConfirm={() => remove.mutate({ project_sysno: b.project_sysno, building_sysno: b.building_sysno ?? 0 })}>
                          <Button type="link" danger>{p.remove}</Button>
                        </Popconfirm>
                      </Space>
                    )
                  }
                >
                  <PolicyView policy={b} />
                </Card>
              ))
            )}
          </Card>
          <Card size="small" title={p.whitelists} extra={editable && <Button type="link" onClick={() => { form.resetFields(); setWhitelisting('new'); }}>{p.addWhitelist}</Button>}>
            <p style={{ color: '#909399', marginTop: 0 }}>{p.whitelistHelp}</p>
            <ListTable<WhitelistRead>
              tableId="load-whitelists"
              size="small"
              rowKey="device_sysno"
              pagination={false}
              locale={{ emptyText: p.noWhitelist }}
              dataSource={data.whitelists}
              columns={[
                { title: p.whitelistDevice, key: 'device', width: 180, keep: true, render: (_: unknown, w) => `${w.device_name}（${w.device_id}）` },
                { title: p.whitelistAppliances, dataIndex: 'appliances', width: 240, render: (list: string[]) => list.map((c) => <Tag key={c} color="blue">{c}</Tag>) },
                ...(editable ? [{ title: loadIdent.operate, key: 'op', width: 90, render: (_: unknown, w: WhitelistRead) => <Button type="link" onClick={() => { form.setFieldsValue(w); setWhitelisting(w); }}>{p.edit}</Button> }] : []),
              ]}
            />
          </Card>
        </Space>
      )}
      <PolicyModal editing={editing} categories={data?.categories ?? []} buildings={data?.building_options ?? []} onClose={() => setEditing(null)} />
      <Modal title={p.whitelistTitle} open={whitelisting !== null} onCancel={() => setWhitelisting(null)} onOk={() => form.submit()} okText={p.save} cancelText={p.cancel} confirmLoading={saveWhitelist.isPending} forceRender>
        <Form form={form} layout="vertical" onFinish={saveList} name="load-whitelist">
          <Form.Item name="device_sysno" label={p.whitelistDevice} rules={[{ required: true, message: p.deviceRequired }]}>
            <Select showSearch optionFilterProp="label" disabled={whitelisting !== 'new'} options={devices.map((d) => ({ value: d.sysno, label: `${d.name}（${d.device_id}）` }))} />
          </Form.Item>
          <Form.Item name="appliances" label={p.whitelistAppliances}>
            <Select mode="multiple" allowClear options={(data?.categories ?? []).map((c) => ({ value: c, label: c }))} />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
