import { axisRange, niceCeil } from './axisRange';

describe('niceCeil', () => {
  it('rounds up to a round number', () => {
    expect(niceCeil(0.7)).toBeCloseTo(0.8);
    expect(niceCeil(1)).toBe(1);
    expect(niceCeil(13)).toBe(15);
    expect(niceCeil(22)).toBe(25);
    expect(niceCeil(3100)).toBe(4000);
    expect(niceCeil(6000)).toBe(6000);
    expect(niceCeil(8100)).toBe(10000);
  });
});

describe('axisRange', () => {
  it('keeps voltage noise flat: a few tenths of a volt get an axis at least 40 V wide around them', () => {
    const range = axisRange('voltage', [219.96, 220.05, 220.2, null]);
    expect(range.min).toBeLessThanOrEqual(198);
    expect(range.max).toBeGreaterThanOrEqual(242);
    expect(range.max - range.min).toBeGreaterThanOrEqual(40);
    // Not zoomed out to 0 either.
    expect(range.min).toBeGreaterThan(150);
  });

  it('widens the voltage axis 10 % past the readings when they already spread', () => {
    expect(axisRange('voltage', [180, 250])).toEqual({ min: 160, max: 280 });
  });

  it('starts current, power and leakage from 0', () => {
    expect(axisRange('current', [3.2, 4.8, 5.1])).toEqual({ min: 0, max: 6 });
    expect(axisRange('power', [1200, 1350])).toEqual({ min: 0, max: 1500 });
    expect(axisRange('leakage', [2, 3])).toEqual({ min: 0, max: 30 });
  });

  it('draws a scale for all-zero or missing readings', () => {
    expect(axisRange('current', [0, 0, 0])).toEqual({ min: 0, max: 1 });
    expect(axisRange('power', [null, null])).toEqual({ min: 0, max: 100 });
    expect(axisRange('voltage', [])).toEqual({ min: 200, max: 240 });
  });

  it('goes below 0 only for readings below 0', () => {
    expect(axisRange('power', [-300, 800]).min).toBe(-400);
    expect(axisRange('temperature', [-8, 5]).min).toBe(-10);
  });

  it('gives temperature 0 to at least 60 °C, more when it runs hot', () => {
    expect(axisRange('temperature', [31.5, 32.1])).toEqual({ min: 0, max: 60 });
    expect(axisRange('temperature', [70, 85])).toEqual({ min: 0, max: 100 });
  });
});
