import { useState } from 'react';
import { Button, Form, Input, Modal, Popconfirm, Space } from 'antd';
import { ListTable } from '@/components/ListTable';
import { useDeleteBuilding, useSaveBuilding } from '@/api/projects/queries';
import type { BuildingRead, ProjectRead } from '@/api/schema';
import { common, projects } from '@/locales/zh-CN';
import { useMessage } from '@/components/Feedback';

interface Props {
  project: ProjectRead | null;
  onClose: () => void;
}

interface Values {
  name: string;
  remark?: string;
}

/** The buildings of one project: add, rename, delete (refused by the server while gateways remain). */
export function BuildingsModal({ project, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const [editing, setEditing] = useState<BuildingRead | null>(null);
  const message = useMessage();
  const save = useSaveBuilding();
  const remove = useDeleteBuilding();
  const buildings = project?.list_child ?? [];

  function startEdit(building: BuildingRead | null) {
    setEditing(building);
    form.setFieldsValue({ name: building?.name ?? '', remark: building?.remark ?? '' });
  }

  async function submit(values: Values) {
    if (!project) return;
    await save.mutateAsync({
      sysno: editing?.sysno,
      project_sysno: project.sysno,
      name: values.name.trim(),
      remark: values.remark?.trim() || null,
    });
    message.success(projects.buildingSaved);
    startEdit(null);
  }

  return (
    <Modal
      open={project !== null}
      title={project ? projects.buildingsOf(project.name) : ''}
      onCancel={() => {
        startEdit(null);
        onClose();
      }}
      footer={null}
      width={620}
      destroyOnHidden
    >
      <Form form={form} layout="inline" onFinish={(v) => submit(v).catch(() => undefined)} style={{ marginBottom: 16, rowGap: 8 }} name="building-form">
        <Form.Item name="name" rules={[{ required: true, whitespace: true, message: projects.buildingNameRequired }, { max: 64 }]}>
          <Input placeholder={projects.buildingName} maxLength={64} showCount style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="remark">
          <Input placeholder={projects.remark} maxLength={500} showCount style={{ width: 160 }} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {editing ? common.confirm : projects.addBuilding}
          </Button>
          {editing && <Button onClick={() => startEdit(null)}>{common.cancel}</Button>}
        </Space>
      </Form>
      <ListTable<BuildingRead>
        tableId="project-buildings"
        rowKey="sysno"
        size="small"
        pagination={false}
        dataSource={buildings}
        locale={{ emptyText: projects.noBuildings }}
        columns={[
          { title: projects.buildingName, dataIndex: 'name', key: 'name' },
          { title: projects.buildingGateways, dataIndex: 'gateway_count', key: 'gateway_count', width: 80 },
          { title: projects.remark, dataIndex: 'remark', key: 'remark', ellipsis: true },
          {
            title: projects.actions,
            key: 'actions',
            width: 120,
            render: (_, building) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => startEdit(building)}>
                  {projects.editShort}
                </Button>
                <Popconfirm
                  title={projects.buildingDeleteConfirm(building.name)}
                  onConfirm={() =>
                    remove
                      .mutateAsync(building.sysno)
                      .then(() => message.success(projects.buildingDeleted))
                      .catch(() => undefined)
                  }
                >
                  <Button type="link" size="small" danger>
                    {projects.delete}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </Modal>
  );
}
