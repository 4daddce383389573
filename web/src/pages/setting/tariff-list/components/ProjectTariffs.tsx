import { Alert, Select } from 'antd';
import { ListTable } from '@/components/ListTable';
import { useProjectTariffs, useSetProjectTariff, useTariffPlans } from '@/api/energy/queries';
import type { ProjectTariffRead } from '@/api/schema';
import { useMessage } from '@/components/Feedback';
import { tariffs } from '@/locales/zh-CN';

/** A plan is a select of at most the server's 50 plans: one page holds them all. */
const ALL_PLANS = { pageIndex: 1, pageSize: 200, orderBy: 'name', sort: 'asc' as const };
/** The select's value for "the default plan" (the API's null). */
const DEFAULT = 0;

/** 项目电价: the plan each owned project's costs use; the default plan where none is chosen. */
export function ProjectTariffs() {
  const message = useMessage();
  const projects = useProjectTariffs();
  const plans = useTariffPlans(ALL_PLANS);
  const set = useSetProjectTariff();
  const defaultPlan = plans.data?.dataSource.find((p) => p.is_default) ?? null;
  const options = [
    { value: DEFAULT, label: tariffs.defaultPlan(defaultPlan?.name ?? null) },
    ...(plans.data?.dataSource ?? []).map((p) => ({ value: p.sysno, label: p.name })),
  ];

  return (
    <div data-testid="project-tariffs">
      <Alert type="info" showIcon title={tariffs.projectsHint} style={{ marginBottom: 12 }} />
      <ListTable<ProjectTariffRead>
        tableId="project-tariffs"
        rowKey="project_sysno"
        size="middle"
        loading={projects.isFetching}
        dataSource={projects.data ?? []}
        pagination={false}
        locale={{ emptyText: tariffs.projectsEmpty }}
        columns={[
          { title: tariffs.projectName, dataIndex: 'project_name', width: 130, ellipsis: true, keep: true },
          {
            title: tariffs.plan,
            key: 'plan',
            width: 180,
            keep: true,
            render: (_, row) => (
              <Select<number>
                value={row.plan_sysno ?? DEFAULT}
                options={options}
                loading={set.isPending && set.variables?.project_sysno === row.project_sysno}
                onChange={(value) =>
                  set
                    .mutateAsync({ project_sysno: row.project_sysno, plan_sysno: value === DEFAULT ? null : value })
                    .then(() => message.success(tariffs.projectSaved))
                    .catch(() => undefined)
                }
                style={{ width: '100%', maxWidth: 440 }}
                data-testid={`project-plan-${row.project_sysno}`}
              />
            ),
          },
        ]}
      />
    </div>
  );
}
