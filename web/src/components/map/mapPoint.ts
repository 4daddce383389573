export interface Point {
  longitude: number;
  latitude: number;
}

/** The picker shows mainland China and its surroundings. */
export const VIEW = { west: 73, east: 135, south: 18, north: 54 } as const;

/** A click at (x, y), each 0–1 from the picker's top-left corner, as a coordinate (4 decimals). */
export function percentToPoint(x: number, y: number): Point {
  const round = (v: number) => Math.round(v * 10_000) / 10_000;
  return {
    longitude: round(VIEW.west + x * (VIEW.east - VIEW.west)),
    latitude: round(VIEW.north - y * (VIEW.north - VIEW.south)),
  };
}

/** Where a coordinate sits in the picker (0–1 each), clamped to its edges. */
export function pointToPercent(point: Point): { x: number; y: number } {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return {
    x: clamp((point.longitude - VIEW.west) / (VIEW.east - VIEW.west)),
    y: clamp((VIEW.north - point.latitude) / (VIEW.north - VIEW.south)),
  };
}

/** Keeps a coordinate within the ranges the server accepts. */
export function clampPoint(point: Point): Point {
  return {
    longitude: Math.min(180, Math.max(-180, point.longitude)),
    latitude: Math.min(90, Math.max(-90, point.latitude)),
  };
}
