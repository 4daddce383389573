import { Button, Popconfirm, Space, Tag, Typography } from 'antd';
import type { ListColumn } from '@/components/ListTable';
import type { ProjectRead } from '@/api/schema';
import { projects, shares } from '@/locales/zh-CN';

interface Actions {
  /** On a narrow screen no column is pinned, so the table scrolls as a whole. */
  mobile: boolean;
  onEdit: (project: ProjectRead) => void;
  onBuildings: (project: ProjectRead) => void;
  onDelete: (project: ProjectRead) => void;
}

const count = (online: number, total: number) => (
  <span>
    <Typography.Text type={online < total ? 'warning' : undefined}>{online}</Typography.Text>/{total}
  </span>
);

export function projectColumns({ mobile, onEdit, onBuildings, onDelete }: Actions): ListColumn<ProjectRead>[] {
  return [
    {
      title: projects.name,
      dataIndex: 'name',
      key: 'name',
      width: 200,
      ellipsis: true,
      sorter: true,
      keep: true,
      render: (name: string, project) =>
        project.is_shared ? (
          <Space size={4}>
            {name}
            <Tag color="purple" bordered={false} data-testid={`shared-project-${project.sysno}`}>
              {shares.sharedBy(project.owner_name)}
            </Tag>
          </Space>
        ) : (
          name
        ),
    },
    { title: projects.address, dataIndex: 'address', key: 'address', width: 200, ellipsis: true, rank: 6 },
    {
      title: projects.buildings,
      key: 'buildings',
      width: 200,
      rank: 2,
      render: (_, project) =>
        project.list_child.length === 0 ? (
          <Typography.Text type="secondary">{projects.noBuildings}</Typography.Text>
        ) : (
          <Space size={[4, 4]} wrap>
            {project.list_child.map((b) => (
              <Tag key={b.sysno} style={{ marginInlineEnd: 0 }}>
                {b.name}
              </Tag>
            ))}
          </Space>
        ),
    },
    { title: projects.gateways, key: 'gateways', width: 100, rank: 3, render: (_, p) => count(p.online_gateway_count, p.gateway_count) },
    { title: projects.devices, key: 'devices', width: 100, rank: 4, render: (_, p) => count(p.online_device_count, p.device_count) },
    { title: projects.contactName, dataIndex: 'contact_name', key: 'contact_name', width: 110, ellipsis: true, rank: 7 },
    { title: projects.createTime, dataIndex: 'create_time', key: 'create_time', width: 185, sorter: true, defaultSortOrder: 'descend', rank: 5 },
    {
      title: projects.actions,
      key: 'actions',
      width: 170,
      keep: 'wide',
      rank: 1,
      fixed: mobile ? undefined : 'right',
      // Editing a project, its buildings and deleting it stay with its owner.
      render: (_, project) =>
        project.is_shared ? (
          <Typography.Text type="secondary">{shares.ownerOnly}</Typography.Text>
        ) : (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => onEdit(project)}>
              {projects.editShort}
            </Button>
            <Button type="link" size="small" onClick={() => onBuildings(project)}>
              {projects.manageBuildings}
            </Button>
            <Popconfirm title={projects.deleteConfirm(project.name)} onConfirm={() => onDelete(project)}>
              <Button type="link" size="small" danger>
                {projects.delete}
              </Button>
            </Popconfirm>
          </Space>
        ),
    },
  ];
}
