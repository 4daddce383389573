import { parseSysno } from './logFilters';
import { clampPoint, percentToPoint, pointToPercent } from './project-list/components/mapPoint';

describe('log filters', () => {
  it('reads the sysno route parameter as a positive id only', () => {
    expect(parseSysno('12')).toBe(12);
    expect(parseSysno(null)).toBeNull();
    expect(parseSysno('0')).toBeNull();
    expect(parseSysno('-3')).toBeNull();
    expect(parseSysno('12abc')).toBeNull();
    expect(parseSysno('9'.repeat(30))).toBeNull();
  });
});

describe('map point picker', () => {
  it('maps a click to a coordinate and back', () => {
    const point = percentToPoint(0.5, 0.5);
    expect(point).toEqual({ longitude: 104, latitude: 36 });
    expect(pointToPercent(point)).toEqual({ x: 0.5, y: 0.5 });
  });
  it('pins points outside the view to its edge and keeps coordinates valid', () => {
    expect(pointToPercent({ longitude: 0, latitude: 90 })).toEqual({ x: 0, y: 0 });
    expect(clampPoint({ longitude: 200, latitude: -95 })).toEqual({ longitude: 180, latitude: -90 });
  });
});
