import { useMemo, useState } from 'react';
import { Card, Col, DatePicker, Empty, Row, Space, Statistic, theme } from 'antd';
import type { Dayjs } from 'dayjs';
import { useLoadStatistics } from '@/api/loadIdent/queries';
import { EChart } from '@/components/charts/EChart';
import { ProjectSelect } from '@/components/ProjectSelect';
import { loadIdent } from '@/locales/zh-CN';
import { serverNow } from '@/utils/format';
import { byApplianceOption, byBuildingOption, byDayOption } from '../charts';

type Range = [Dayjs, Dayjs];
const DAY = 'YYYY-MM-DD';
const PRESETS = [7, 30, 90].map((n) => ({ label: loadIdent.stats.lastDays(n), value: [serverNow().subtract(n - 1, 'day'), serverNow()] as Range }));

/** 违规统计: forbidden appliances by building, category and day. */
export function LoadStatisticsPanel() {
  const [range, setRange] = useState<Range>(PRESETS[1].value);
  const [project, setProject] = useState<number | null>(null);
  const stats = useLoadStatistics({ project_sysno: project, start_time: range[0].format(DAY), end_time: range[1].format(DAY) });
  const data = stats.data;
  const colour = theme.useToken().token.colorPrimary;
  const options = useMemo(
    () => data && { building: byBuildingOption(data, colour), appliance: byApplianceOption(data), day: byDayOption(data, colour) },
    [data, colour],
  );
  const s = loadIdent.stats;
  return (
    <div data-testid="load-statistics">
      <Space wrap style={{ marginBottom: 16 }}>
        <span>{s.range}</span>
        <DatePicker.RangePicker value={range} allowClear={false} presets={PRESETS} onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])} />
        <span>{loadIdent.project}</span>
        <ProjectSelect width={180} placeholder={loadIdent.allProjects} value={project ?? undefined} onChange={(v?: number) => setProject(v ?? null)} />
      </Space>
      <Row gutter={[16, 16]}>
        <Col xs={24} sm={8}>
          <Card loading={stats.isPending}>
            <Statistic title={s.identified} value={data?.identified ?? 0} />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card loading={stats.isPending}>
            <Statistic title={s.forbidden} value={data?.forbidden ?? 0} valueStyle={{ color: '#E6A23C' }} />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card loading={stats.isPending}>
            <Statistic title={s.tripped} value={data?.tripped ?? 0} valueStyle={{ color: '#F56C6C' }} />
          </Card>
        </Col>
        {data && options && data.forbidden === 0 ? (
          <Col span={24}>
            <Card>
              <Empty description={s.empty} />
            </Card>
          </Col>
        ) : (
          options && (
            <>
              <Col xs={24} lg={12}>
                <Card title={s.byBuilding} size="small">
                  <EChart option={options.building} height={300} testId="load-by-building" />
                </Card>
              </Col>
              <Col xs={24} lg={12}>
                <Card title={s.byAppliance} size="small">
                  <EChart option={options.appliance} height={300} testId="load-by-appliance" />
                </Card>
              </Col>
              <Col span={24}>
                <Card title={s.byDay} size="small">
                  <EChart option={options.day} height={240} testId="load-by-day" />
                </Card>
              </Col>
            </>
          )
        )}
      </Row>
    </div>
  );
}
