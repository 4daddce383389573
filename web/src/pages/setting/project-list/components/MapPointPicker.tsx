import { Button, Space, Typography } from 'antd';
import type { MouseEvent } from 'react';
import { projects } from '@/locales/zh-CN';
import { dotStyle, MapGrid, MapLabel } from '@/components/map/MapGrid';
import { clampPoint, percentToPoint, VIEW, type Point } from '@/components/map/mapPoint';

interface Props {
  value: Point | null;
  onChange: (point: Point | null) => void;
}

/**
 * A coordinate picker without map tiles (the platform runs without internet): a grid over
 * China's longitudes and latitudes where a click places the project's point.
 */
export function MapPointPicker({ value, onChange }: Props) {
  function pick(event: MouseEvent<HTMLDivElement>) {
    const box = event.currentTarget.getBoundingClientRect();
    const x = (event.clientX - box.left) / box.width;
    const y = (event.clientY - box.top) / box.height;
    onChange(clampPoint(percentToPoint(x, y)));
  }
  return (
    <div>
      <MapGrid role="presentation" onClick={pick} data-testid="map-picker" height={180} borderColor="#d9d9d9" style={{ cursor: 'crosshair' }}>
        <MapLabel style={{ left: 6, bottom: 2 }}>
          {VIEW.south}°N · {VIEW.west}°E
        </MapLabel>
        {value && <span data-testid="map-marker" style={dotStyle(value, 'var(--pp-primary, #409EFF)', 'rgba(64, 158, 255, 0.25)')} />}
      </MapGrid>
      <Space style={{ marginTop: 4 }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {value ? `${value.longitude.toFixed(4)}°E, ${value.latitude.toFixed(4)}°N` : projects.noPoint}
        </Typography.Text>
        {value && (
          <Button type="link" size="small" onClick={() => onChange(null)}>
            {projects.clearPoint}
          </Button>
        )}
      </Space>
    </div>
  );
}
