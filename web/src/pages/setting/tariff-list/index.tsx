import { useState } from 'react';
import { Button, Input, Space, Tabs } from 'antd';
import { ListTable } from '@/components/ListTable';
import { PlusOutlined } from '@ant-design/icons';
import { useDeleteTariffPlan, useTariffPlans } from '@/api/energy/queries';
import type { PlanRead } from '@/api/schema';
import { useMessage } from '@/components/Feedback';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { logs, tariffs } from '@/locales/zh-CN';
import { useAppStore } from '@/store/app';
import { serverNow } from '@/utils/format';
import { planColumns } from './columns';
import { PlanModal } from './components/PlanModal';
import { ProjectTariffs } from './components/ProjectTariffs';

/** The customer's tariff plans, paged like every list, with their editor. */
function PlanList() {
  const message = useMessage();
  const mobile = useAppStore((s) => s.device === 'mobile');
  const paged = usePagedQuery<{ name?: string }>({ showTotal: logs.total });
  const [editing, setEditing] = useState<{ plan: PlanRead | null } | null>(null);
  const list = useTariffPlans({ ...paged.page, ...paged.order, name: paged.filters.name || null });
  const remove = useDeleteTariffPlan();
  const columns = planColumns({
    mobile,
    today: serverNow().format('YYYY-MM-DD'),
    onEdit: (plan) => setEditing({ plan }),
    onDelete: (plan) =>
      remove
        .mutateAsync(plan.sysno)
        .then(() => message.success(tariffs.deleted))
        .catch(() => undefined),
  });

  return (
    <>
      <Space wrap style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
        <Input.Search allowClear maxLength={64} placeholder={tariffs.namePlaceholder} style={{ width: 260 }} onSearch={(text) => paged.search({ name: text.trim() })} />
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ plan: null })}>
          {tariffs.add}
        </Button>
      </Space>
      <ListTable<PlanRead>
        tableId="tariff-list"
        rowKey="sysno"
        columns={columns}
        locale={{ emptyText: tariffs.empty }}
        data-testid="plan-table"
        {...paged.tableProps(list)}
      />
      <PlanModal open={editing !== null} plan={editing?.plan ?? null} onClose={() => setEditing(null)} />
    </>
  );
}

/** 电价管理: tariff plans with dated versions, and which plan each project uses. */
export default function TariffListPage() {
  return (
    <Tabs
      data-testid="tariff-tabs"
      items={[
        { key: 'plans', label: tariffs.plansTab, children: <PlanList /> },
        { key: 'projects', label: tariffs.projectsTab, children: <ProjectTariffs /> },
      ]}
    />
  );
}
