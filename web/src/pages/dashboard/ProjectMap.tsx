import { Tooltip, Typography } from 'antd';
import type { ProjectDashboardRow } from '@/api/schema';
import { dashboard } from '@/locales/zh-CN';
import { dotStyle, MapGrid } from '@/components/map/MapGrid';

/** Where the projects are, on the same tile-free grid the project form uses; red when something is offline. */
export function ProjectMap({ rows }: { rows: ProjectDashboardRow[] }) {
  const placed = rows.filter((r) => r.longitude !== null && r.latitude !== null);
  return (
    <div>
      <MapGrid data-testid="project-map" height={260} borderColor="#f0f0f0">
        {placed.map((row) => {
          const healthy = row.device_offline_count === 0 && row.gateway_offline_count === 0;
          const [color, halo] = healthy ? ['#52c41a', 'rgba(82,196,26,.25)'] : ['#ff4d4f', 'rgba(255,77,79,.25)'];
          const point = { longitude: row.longitude ?? 0, latitude: row.latitude ?? 0 };
          return (
            <Tooltip key={row.sysno} title={`${row.name}：${dashboard.devices} ${row.device_online_count}/${row.device_count}`}>
              <span style={dotStyle(point, color, halo)} />
            </Tooltip>
          );
        })}
      </MapGrid>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {dashboard.noPoint}
      </Typography.Text>
    </div>
  );
}
