import { Button, Popconfirm, Space, Tag, Typography } from 'antd';
import type { ListColumn } from '@/components/ListTable';
import type { PlanRead } from '@/api/schema';
import { tariffs } from '@/locales/zh-CN';
import { nextVersion, versionInForce } from './version';
import { PriceTags } from './components/VersionView';

interface Actions {
  /** On a narrow screen no column is pinned, so the table scrolls as a whole. */
  mobile: boolean;
  /** The customer's date (YYYY-MM-DD), to tell the version in force. */
  today: string;
  onEdit: (plan: PlanRead) => void;
  onDelete: (plan: PlanRead) => void;
}

export function planColumns({ mobile, today, onEdit, onDelete }: Actions): ListColumn<PlanRead>[] {
  return [
    {
      title: tariffs.name,
      dataIndex: 'name',
      key: 'name',
      width: 200,
      keep: true,
      sorter: true,
      fixed: mobile ? undefined : 'left',
      render: (name: string, plan) => (
        <span>
          {name} {plan.is_default && <Tag color="blue">{tariffs.defaultTag}</Tag>}
        </span>
      ),
    },
    {
      title: tariffs.current,
      key: 'current',
      width: 220,
      keep: 'wide',
      render: (_, plan) => {
        const current = versionInForce(plan.versions, today);
        return current ? <PriceTags prices={current.prices} /> : <Typography.Text type="secondary">{tariffs.noCurrent}</Typography.Text>;
      },
    },
    {
      title: tariffs.versions,
      key: 'versions',
      width: 120,
      rank: 3,
      render: (_, plan) => {
        const next = nextVersion(plan.versions, today);
        return (
          <span>
            {tariffs.versionCount(plan.versions.length)}
            {next && (
              <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                {tariffs.upcoming(next.effective_date)}
              </Typography.Text>
            )}
          </span>
        );
      },
    },
    {
      title: tariffs.projects,
      key: 'projects',
      width: 140,
      rank: 2,
      render: (_, plan) =>
        plan.projects.length === 0 ? (
          tariffs.noProjects
        ) : (
          <Space size={[4, 4]} wrap>
            {plan.projects.map((name) => (
              <Tag key={name} style={{ marginInlineEnd: 0 }}>
                {name}
              </Tag>
            ))}
          </Space>
        ),
    },
    { title: tariffs.createTime, dataIndex: 'create_time', key: 'create_time', width: 150, sorter: true, defaultSortOrder: 'descend', rank: 4 },
    {
      title: tariffs.actions,
      key: 'actions',
      width: 110,
      keep: 'wide',
      rank: 1,
      fixed: mobile ? undefined : 'right',
      render: (_, plan) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => onEdit(plan)}>
            {tariffs.editShort}
          </Button>
          <Popconfirm title={tariffs.deleteConfirm(plan.name)} onConfirm={() => onDelete(plan)}>
            <Button type="link" size="small" danger>
              {tariffs.delete}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];
}
