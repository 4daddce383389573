import { useState } from 'react';
import { useAppStore } from '@/store/app';
import { Button, Input, Space } from 'antd';
import { ListTable } from '@/components/ListTable';
import { PlusOutlined } from '@ant-design/icons';
import { projectApi, useDeleteProject, useProjectList } from '@/api/projects/queries';
import { ExportListButton } from '@/components/ExportListButton';
import type { ProjectRead } from '@/api/schema';
import { logs, projects } from '@/locales/zh-CN';
import { projectColumns } from './columns';
import { ProjectModal } from './components/ProjectModal';
import { BuildingsModal } from './components/BuildingsModal';
import { useMessage } from '@/components/Feedback';
import { usePagedQuery } from '@/hooks/usePagedQuery';

/** 项目管理: the customer's projects with their buildings and equipment counts. */
export default function ProjectListPage() {
  const message = useMessage();
  const mobile = useAppStore((s) => s.device === 'mobile');
  const paged = usePagedQuery<{ name?: string }>({ showTotal: logs.total });
  const [editing, setEditing] = useState<{ project: ProjectRead | null } | null>(null);
  const [buildingsOf, setBuildingsOf] = useState<number | null>(null);
  const query = { ...paged.page, ...paged.order, name: paged.filters.name || null };
  const list = useProjectList(query);
  const rows = list.data?.dataSource ?? [];
  const remove = useDeleteProject();

  const columns = projectColumns({
    mobile,
    onEdit: (project) => setEditing({ project }),
    onBuildings: (project) => setBuildingsOf(project.sysno),
    onDelete: (project) =>
      remove
        .mutateAsync(project.sysno)
        .then(() => message.success(projects.deleted))
        .catch(() => undefined),
  });

  return (
    <>
      <Space wrap style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
        <Input.Search
          maxLength={64}
          allowClear
          placeholder={projects.namePlaceholder}
          style={{ width: 260 }}
          onSearch={(text) => paged.search({ name: text.trim() })}
        />
        <Space wrap>
          <ExportListButton download={() => projectApi.exportList(query)} fallbackName={projects.exportName} />
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ project: null })}>
            {projects.add}
          </Button>
        </Space>
      </Space>
      <ListTable<ProjectRead>
        tableId="project-list"
        rowKey="sysno"
        columns={columns}
        {...paged.tableProps(list)}
      />
      <ProjectModal open={editing !== null} project={editing?.project ?? null} onClose={() => setEditing(null)} />
      {/* The modal reads the project from the list so new buildings show up as soon as the list reloads. */}
      <BuildingsModal project={rows.find((p) => p.sysno === buildingsOf) ?? null} onClose={() => setBuildingsOf(null)} />
    </>
  );
}
