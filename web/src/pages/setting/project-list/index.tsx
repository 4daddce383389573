import { useState } from 'react';
import { useAppStore } from '@/store/app';
import { Button, Input, Space, Table } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useDeleteProject, useProjectList } from '@/api/projects/queries';
import type { ProjectRead } from '@/api/projects/types';
import { logs, projects } from '@/locales/zh-CN';
import { projectColumns } from './columns';
import { ProjectModal } from './components/ProjectModal';
import { BuildingsModal } from './components/BuildingsModal';
import { useMessage } from '@/components/Feedback';

const PAGE_SIZES = [10, 20, 30, 50];

/** 项目管理: the customer's projects with their buildings and equipment counts. */
export default function ProjectListPage() {
  const message = useMessage();
  const mobile = useAppStore((s) => s.device === 'mobile');
  const [name, setName] = useState('');
  const [page, setPage] = useState({ pageIndex: 1, pageSize: PAGE_SIZES[0] });
  const [order, setOrder] = useState<{ orderBy: string; sort: 'asc' | 'desc' }>({ orderBy: 'create_time', sort: 'desc' });
  const [editing, setEditing] = useState<{ project: ProjectRead | null } | null>(null);
  const [buildingsOf, setBuildingsOf] = useState<number | null>(null);
  const list = useProjectList({ ...page, ...order, name: name || null });
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
          allowClear
          placeholder={projects.namePlaceholder}
          style={{ width: 260 }}
          onSearch={(text) => {
            setName(text.trim());
            setPage((p) => ({ ...p, pageIndex: 1 }));
          }}
        />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ project: null })}>
          {projects.add}
        </Button>
      </Space>
      <Table<ProjectRead>
        rowKey="sysno"
        columns={columns}
        dataSource={rows}
        loading={list.isFetching}
        scroll={{ x: 1200 }}
        onChange={(_, __, sorter) => {
          const one = Array.isArray(sorter) ? sorter[0] : sorter;
          setOrder({
            orderBy: one?.order ? String(one.columnKey) : 'create_time',
            sort: one?.order === 'ascend' ? 'asc' : 'desc',
          });
        }}
        pagination={{
          current: page.pageIndex,
          pageSize: page.pageSize,
          total: list.data?.totalCount ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES,
          showTotal: logs.total,
          onChange: (pageIndex, pageSize) => setPage({ pageIndex: pageSize === page.pageSize ? pageIndex : 1, pageSize }),
        }}
      />
      <ProjectModal open={editing !== null} project={editing?.project ?? null} onClose={() => setEditing(null)} />
      {/* The modal reads the project from the list so new buildings show up as soon as the list reloads. */}
      <BuildingsModal project={rows.find((p) => p.sysno === buildingsOf) ?? null} onClose={() => setBuildingsOf(null)} />
    </>
  );
}
