import { describeSlots, normalSlots, paintSlots, periodsUsed, slotSpans, slotTime, uniformSlots } from './slots';

describe('the half-hour slot table', () => {
  it('paints a range in either direction, both ends included', () => {
    const flat = uniformSlots();
    expect(flat).toBe('2'.repeat(48));
    const valley = paintSlots(flat, 15, 0, 3);
    expect(valley.slice(0, 16)).toBe('3'.repeat(16));
    expect(valley[16]).toBe('2');
    expect(paintSlots(valley, 20, 20, 0)[20]).toBe('0');
    expect(paintSlots(valley, 20, 20, 0).length).toBe(48);
  });

  it('clamps painting to the day', () => {
    expect(paintSlots(uniformSlots(), -5, 100, 1)).toBe('1'.repeat(48));
  });

  it('reads a damaged table as 平 where it makes no sense, never losing length', () => {
    expect(normalSlots('0139')).toBe('0132' + '2'.repeat(44));
  });

  it('names slot times from 00:00 to 24:00', () => {
    expect(slotTime(0)).toBe('00:00');
    expect(slotTime(17)).toBe('08:30');
    expect(slotTime(48)).toBe('24:00');
  });

  it('describes a table as runs of periods', () => {
    const slots = paintSlots(paintSlots(uniformSlots(), 0, 15, 3), 20, 23, 1);
    expect(slotSpans(slots)).toEqual([
      { period: 3, from: 0, to: 16 },
      { period: 2, from: 16, to: 20 },
      { period: 1, from: 20, to: 24 },
      { period: 2, from: 24, to: 48 },
    ]);
    expect(describeSlots(slots)).toBe('00:00–08:00 谷；08:00–10:00 平；10:00–12:00 峰；12:00–24:00 平');
  });

  it('collects the periods used across tables', () => {
    expect([...periodsUsed([uniformSlots(), paintSlots(uniformSlots(), 0, 0, 4)])].sort()).toEqual([2, 4]);
  });
});
