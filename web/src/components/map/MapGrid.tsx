import type { CSSProperties, HTMLAttributes, ReactNode } from 'react';
import { Typography } from 'antd';
import { pointToPercent, VIEW, type Point } from './mapPoint';

const GRID_LINES = 6;
const GRID_BACKGROUND =
  'linear-gradient(#f0f5ff 1px, transparent 1px) 0 0 / 100% ' +
  `${100 / GRID_LINES}%, linear-gradient(90deg, #f0f5ff 1px, #fafcff 1px) 0 0 / ${100 / GRID_LINES}% 100%`;

const LABEL: CSSProperties = { position: 'absolute', fontSize: 11 };

type Props = HTMLAttributes<HTMLDivElement> & { height: number; borderColor: string };

/**
 * The grid over China's longitudes and latitudes that stands in for a map (the platform runs
 * without internet, so without map tiles); its children are placed on it, e.g. with `dotStyle`.
 */
export function MapGrid({ height, borderColor, style, children, ...props }: Props) {
  return (
    <div
      {...props}
      style={{ position: 'relative', height, border: `1px solid ${borderColor}`, borderRadius: 6, background: GRID_BACKGROUND, ...style }}
    >
      <MapLabel style={{ left: 6, top: 2 }}>{VIEW.north}°N</MapLabel>
      <MapLabel style={{ right: 6, bottom: 2 }}>{VIEW.east}°E</MapLabel>
      {children}
    </div>
  );
}

/** A small grey note in a corner of the grid. */
export function MapLabel({ style, children }: { style: CSSProperties; children: ReactNode }) {
  return (
    <Typography.Text type="secondary" style={{ ...LABEL, ...style }}>
      {children}
    </Typography.Text>
  );
}

/** A 12 px round dot with a soft halo, centred on `point`. */
export function dotStyle(point: Point, color: string, halo: string): CSSProperties {
  const { x, y } = pointToPercent(point);
  return {
    position: 'absolute',
    left: `${x * 100}%`,
    top: `${y * 100}%`,
    width: 12,
    height: 12,
    margin: '-6px 0 0 -6px',
    borderRadius: '50%',
    background: color,
    boxShadow: `0 0 0 4px ${halo}`,
  };
}
