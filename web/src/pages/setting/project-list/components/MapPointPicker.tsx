import { Button, Space, Typography } from 'antd';
import type { MouseEvent } from 'react';
import { projects } from '@/locales/zh-CN';
import { clampPoint, pointToPercent, percentToPoint, VIEW, type Point } from './mapPoint';

interface Props {
  value: Point | null;
  onChange: (point: Point | null) => void;
}

const GRID_LINES = 6;

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
  const marker = value ? pointToPercent(value) : null;
  return (
    <div>
      <div
        role="presentation"
        onClick={pick}
        data-testid="map-picker"
        style={{
          position: 'relative',
          height: 180,
          border: '1px solid #d9d9d9',
          borderRadius: 6,
          cursor: 'crosshair',
          background:
            'linear-gradient(#f0f5ff 1px, transparent 1px) 0 0 / 100% ' +
            `${100 / GRID_LINES}%, linear-gradient(90deg, #f0f5ff 1px, #fafcff 1px) 0 0 / ${100 / GRID_LINES}% 100%`,
        }}
      >
        <Typography.Text type="secondary" style={{ position: 'absolute', left: 6, top: 2, fontSize: 11 }}>
          {VIEW.north}°N
        </Typography.Text>
        <Typography.Text type="secondary" style={{ position: 'absolute', left: 6, bottom: 2, fontSize: 11 }}>
          {VIEW.south}°N · {VIEW.west}°E
        </Typography.Text>
        <Typography.Text type="secondary" style={{ position: 'absolute', right: 6, bottom: 2, fontSize: 11 }}>
          {VIEW.east}°E
        </Typography.Text>
        {marker && (
          <span
            data-testid="map-marker"
            style={{
              position: 'absolute',
              left: `${marker.x * 100}%`,
              top: `${marker.y * 100}%`,
              width: 12,
              height: 12,
              marginLeft: -6,
              marginTop: -6,
              borderRadius: '50%',
              background: 'var(--pp-primary, #409EFF)',
              boxShadow: '0 0 0 4px rgba(64, 158, 255, 0.25)',
            }}
          />
        )}
      </div>
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
