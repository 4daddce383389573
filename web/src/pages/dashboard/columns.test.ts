import { onlineRate } from './columns';

describe('dashboard online rate', () => {
  it('is the rounded share of online equipment', () => {
    expect(onlineRate(4, 6)).toBe(67);
    expect(onlineRate(0, 3)).toBe(0);
    expect(onlineRate(48, 48)).toBe(100);
  });
  it('counts a project without equipment as fully online', () => {
    expect(onlineRate(0, 0)).toBe(100);
  });
});
