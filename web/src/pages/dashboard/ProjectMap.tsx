import { Tooltip, Typography } from 'antd';
import type { ProjectDashboardRow } from '@/api/projects/types';
import { dashboard } from '@/locales/zh-CN';
import { pointToPercent, VIEW } from '@/pages/setting/project-list/components/mapPoint';

/** Where the projects are, on the same tile-free grid the project form uses; red when something is offline. */
export function ProjectMap({ rows }: { rows: ProjectDashboardRow[] }) {
  const placed = rows.filter((r) => r.longitude !== null && r.latitude !== null);
  return (
    <div>
      <div
        data-testid="project-map"
        style={{
          position: 'relative',
          height: 260,
          border: '1px solid #f0f0f0',
          borderRadius: 6,
          background:
            'linear-gradient(#f0f5ff 1px, transparent 1px) 0 0 / 100% 16.66%, linear-gradient(90deg, #f0f5ff 1px, #fafcff 1px) 0 0 / 16.66% 100%',
        }}
      >
        <Typography.Text type="secondary" style={{ position: 'absolute', left: 6, top: 2, fontSize: 11 }}>
          {VIEW.north}°N
        </Typography.Text>
        <Typography.Text type="secondary" style={{ position: 'absolute', right: 6, bottom: 2, fontSize: 11 }}>
          {VIEW.east}°E
        </Typography.Text>
        {placed.map((row) => {
          const { x, y } = pointToPercent({ longitude: row.longitude ?? 0, latitude: row.latitude ?? 0 });
          const healthy = row.device_offline_count === 0 && row.gateway_offline_count === 0;
          return (
            <Tooltip key={row.sysno} title={`${row.name}：${dashboard.devices} ${row.device_online_count}/${row.device_count}`}>
              <span
                style={{
                  position: 'absolute',
                  left: `${x * 100}%`,
                  top: `${y * 100}%`,
                  width: 12,
                  height: 12,
                  margin: '-6px 0 0 -6px',
                  borderRadius: '50%',
                  background: healthy ? '#52c41a' : '#ff4d4f',
                  boxShadow: `0 0 0 4px ${healthy ? 'rgba(82,196,26,.25)' : 'rgba(255,77,79,.25)'}`,
                }}
              />
            </Tooltip>
          );
        })}
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {dashboard.noPoint}
      </Typography.Text>
    </div>
  );
}
