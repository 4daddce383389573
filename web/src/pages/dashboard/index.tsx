import type { ReactNode } from 'react';
import { Card, Col, Empty, Progress, Row, Statistic, Typography } from 'antd';
import { ListTable } from '@/components/ListTable';
import { ApiOutlined, BankOutlined, HddOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useProjectDashboard } from '@/api/projects/queries';
import type { ProjectDashboardRow } from '@/api/schema';
import { useBrand } from '@/brands/BrandContext';
import { dashboard } from '@/locales/zh-CN';
import { dashboardColumns, onlineRate } from './columns';
import { ProjectMap } from './ProjectMap';

const REFRESH_MS = 10_000;

function StateCard({ title, icon, online, total }: { title: string; icon: ReactNode; online: number; total: number }) {
  return (
    <Card size="small">
      <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 12 }}>
        <Statistic title={title} value={total} prefix={icon} />
        <Progress
          type="circle"
          size={64}
          percent={onlineRate(online, total)}
          format={(percent) => `${percent}%`}
          strokeColor={online < total ? '#faad14' : '#52c41a'}
        />
      </div>
      <Typography.Text type="secondary">
        {dashboard.online} {online} · {dashboard.offline} {total - online}
      </Typography.Text>
    </Card>
  );
}

/** 数据监控: how many projects, gateways and devices are online, per project and on a map. */
export default function DashboardPage() {
  const { flags } = useBrand();
  const navigate = useNavigate();
  const data = useProjectDashboard(REFRESH_MS);
  const summary = data.data?.summary;
  const rows = data.data?.dataSource ?? [];
  const open = (row: ProjectDashboardRow) => navigate(`/user-manage/devices-manage?node=project-${row.sysno}`);

  return (
    <div data-testid="dashboard">
      <Row gutter={[16, 16]}>
        <Col xs={24} md={8}>
          <Card size="small" style={{ height: '100%' }}>
            <Statistic title={dashboard.projects} value={summary?.project_count ?? 0} prefix={<BankOutlined />} loading={data.isPending} />
            <Typography.Text type="secondary">{dashboard.refresh(REFRESH_MS / 1000)}</Typography.Text>
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <StateCard title={dashboard.gateways} icon={<ApiOutlined />} online={summary?.gateway_online_count ?? 0} total={summary?.gateway_count ?? 0} />
        </Col>
        <Col xs={24} md={8}>
          <StateCard title={dashboard.devices} icon={<HddOutlined />} online={summary?.device_online_count ?? 0} total={summary?.device_count ?? 0} />
        </Col>
        <Col xs={24} xl={flags.map ? 15 : 24}>
          <Card size="small" title={dashboard.projectTable}>
            {rows.length === 0 && !data.isPending ? (
              <Empty description={dashboard.empty} />
            ) : (
              <ListTable<ProjectDashboardRow>
        tableId="dashboard-projects"
                rowKey="sysno"
                size="small"
                columns={dashboardColumns(open)}
                dataSource={rows}
                loading={data.isPending}
                pagination={false}
              />
            )}
          </Card>
        </Col>
        {flags.map && (
          <Col xs={24} xl={9}>
            <Card size="small" title={dashboard.map}>
              <ProjectMap rows={rows} />
            </Card>
          </Col>
        )}
      </Row>
    </div>
  );
}
