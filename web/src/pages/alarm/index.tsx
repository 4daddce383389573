import { useMemo, useState } from 'react';
import { Button, Card, Col, DatePicker, Empty, Row, Select, Space, Statistic, Tag, theme } from 'antd';
import { ListTable } from '@/components/ListTable';
import type { Dayjs } from 'dayjs';
import { useNavigate } from 'react-router';
import { useAlarmList, useAlarmStatistics } from '@/api/alarms/queries';
import type { AlarmRead, AlarmStatistics } from '@/api/schema';
import { useProjectOptions } from '@/api/projects/queries';
import { alarms, alarmStats } from '@/locales/zh-CN';
import { EChart } from '@/components/charts/EChart';
import { serverNow } from '@/utils/format';
import { byDayOption, byLevelOption, byProjectOption, byTypeOption } from './options';

type Range = [Dayjs, Dayjs];
const DAY = 'YYYY-MM-DD';
const PRESETS = [7, 30, 90].map((n) => ({ label: alarmStats.lastDays(n), value: [serverNow().subtract(n - 1, 'day'), serverNow()] as Range }));

/** 告警统计: counts by day, type, level and project, and the devices that alarm most. */
export default function AlarmStatisticsPage() {
  const [range, setRange] = useState<Range>(PRESETS[1].value);
  const [project, setProject] = useState<number | null>(null);
  const projects = useProjectOptions();
  const stats = useAlarmStatistics({
    project_sysno: project,
    start_time: range[0].format(DAY),
    end_time: range[1].format(DAY),
  });
  const data = stats.data;
  const primary = theme.useToken().token.colorPrimary;
  const options = useMemo(
    () =>
      data && {
        day: byDayOption(data),
        type: byTypeOption(data, primary),
        level: byLevelOption(data),
        project: byProjectOption(data, primary),
      },
    [data, primary],
  );

  return (
    <div data-testid="alarm-statistics">
      <Space wrap style={{ marginBottom: 16 }}>
        <span>{alarmStats.range}</span>
        <DatePicker.RangePicker
          value={range}
          allowClear={false}
          presets={PRESETS}
          onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
        />
        <span>{alarms.project}</span>
        <Select
          allowClear
          placeholder={alarms.allProjects}
          style={{ width: 180 }}
          value={project ?? undefined}
          onChange={(v?: number) => setProject(v ?? null)}
          options={(projects.data ?? []).map((p) => ({ value: p.sysno, label: p.name }))}
        />
      </Space>
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={8}>
          <Card loading={stats.isPending}>
            <Statistic title={alarmStats.total} value={data?.total ?? 0} />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card loading={stats.isPending}>
            <Statistic title={alarmStats.active} value={data?.active ?? 0} valueStyle={{ color: '#F56C6C' }} />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card loading={stats.isPending}>
            <Statistic title={alarmStats.unprocessed} value={data?.unprocessed ?? 0} valueStyle={{ color: '#E6A23C' }} />
          </Card>
        </Col>
        {data && options && data.total === 0 ? (
          <Col span={24}>
            <Card>
              <Empty description={alarmStats.empty} />
            </Card>
          </Col>
        ) : (
          data &&
          options && (
            <>
              <Col xs={24} lg={16}>
                <Card title={alarmStats.byDay} size="small">
                  <EChart option={options.day} testId="chart-by-day" />
                </Card>
              </Col>
              <Col xs={24} lg={8}>
                <Card title={alarmStats.byLevel} size="small">
                  <EChart option={options.level} testId="chart-by-level" />
                </Card>
              </Col>
              <Col xs={24} lg={12}>
                <Card title={alarmStats.byType} size="small">
                  <EChart option={options.type} testId="chart-by-type" />
                </Card>
              </Col>
              <Col xs={24} lg={12}>
                <Card title={alarmStats.byProject} size="small">
                  <EChart option={options.project} testId="chart-by-project" />
                </Card>
              </Col>
              <Col xs={24} xl={12}>
                <Card title={alarmStats.topDevices} size="small">
                  <TopDevices stats={data} />
                </Card>
              </Col>
              <Col xs={24} xl={12}>
                <Card title={alarmStats.recent} size="small">
                  <RecentAlarms project={project} range={range} />
                </Card>
              </Col>
            </>
          )
        )}
      </Row>
    </div>
  );
}

function TopDevices({ stats }: { stats: AlarmStatistics }) {
  return (
    <ListTable<AlarmStatistics['top_devices'][number]>
      tableId="alarm-top-devices"
      size="small"
      pagination={false}
      rowKey={(row) => `${row.device_sysno ?? 'gw'}-${row.device_id}`}
      dataSource={stats.top_devices}
      columns={[
        { title: alarmStats.rank, key: 'rank', width: 60, keep: true, render: (_: unknown, __: unknown, i: number) => i + 1 },
        { title: alarms.project, dataIndex: 'project_name', width: 140, ellipsis: true, rank: 9 },
        { title: alarms.target, dataIndex: 'target_name', width: 140, ellipsis: true, keep: true },
        { title: alarms.deviceId, dataIndex: 'device_id', width: 90 },
        { title: alarmStats.count, dataIndex: 'count', width: 80, keep: true },
      ]}
    />
  );
}

/** The latest alarms of the range; each opens on the alarm screen. */
function RecentAlarms({ project, range }: { project: number | null; range: Range }) {
  const navigate = useNavigate();
  const list = useAlarmList({
    pageIndex: 1,
    pageSize: 10,
    project_sysno: project,
    start_time: range[0].format(DAY),
    end_time: range[1].format(DAY),
    orderBy: 'start_time',
    sort: 'desc',
  });
  return (
    <ListTable<AlarmRead>
        tableId="alarm-recent"
      size="small"
      pagination={false}
      rowKey="sysno"
      loading={list.isFetching}
      dataSource={list.data?.dataSource ?? []}
      columns={[
        { title: alarms.time, dataIndex: 'start_time', width: 185, rank: 9 },
        { title: alarms.target, dataIndex: 'target_name', width: 120, ellipsis: true, keep: true },
        {
          title: alarms.type,
          dataIndex: 'alarm_type_name',
          width: 100,
          keep: true,
          render: (name: string, row) => <Tag color={row.state === 0 ? 'red' : 'default'}>{name}</Tag>,
        },
        {
          title: alarms.action,
          key: 'open',
          width: 70,
          keep: true,
          render: (_: unknown, row) => (
            <Button type="link" size="small" onClick={() => navigate(`/user-manage/alarm-manage?sysno=${row.sysno}`)}>
              {alarmStats.open}
            </Button>
          ),
        },
      ]}
    />
  );
}
