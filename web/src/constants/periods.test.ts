import { periodColor, periodName, periodOfDigit, PERIOD_COLORS, PRICE_KEYS } from './periods';

describe('tariff periods', () => {
  it('names and colours each period in the server order 尖 峰 平 谷 深谷', () => {
    expect([0, 1, 2, 3, 4].map(periodName)).toEqual(['尖', '峰', '平', '谷', '深谷']);
    expect(periodColor(0)).toBe(PERIOD_COLORS[0]);
    expect(periodColor(4)).toBe('#13A8A8');
    expect(new Set(Object.values(PERIOD_COLORS)).size).toBe(5);
    expect(PRICE_KEYS[3]).toBe('valley');
  });

  it('reads slot digits, falling back to 平 for anything the server would refuse', () => {
    expect(periodOfDigit('0')).toBe(0);
    expect(periodOfDigit('4')).toBe(4);
    expect(periodOfDigit('5')).toBe(2);
    expect(periodOfDigit('')).toBe(2);
    expect(periodColor(7)).toBe(PERIOD_COLORS[2]);
  });
});
