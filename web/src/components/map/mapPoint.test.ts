import { clampPoint, percentToPoint, pointToPercent } from './mapPoint';

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
