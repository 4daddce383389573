import { describe, expect, it } from 'vitest';
import { answeredPercent } from './RunProgress';

describe('answeredPercent', () => {
  it('counts successes and failures as answered', () => {
    expect(answeredPercent({ total: 8, succeeded: 3, failed: 1 })).toBe(50);
    expect(answeredPercent({ total: 0, succeeded: 0, failed: 0 })).toBe(0);
    expect(answeredPercent(undefined)).toBe(0);
  });
});
