import { parseSysno } from './logFilters';

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
