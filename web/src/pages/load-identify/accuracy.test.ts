import { describe, expect, it } from 'vitest';
import { meetsTarget, percent } from './accuracy';

describe('accuracy figures', () => {
  it('shows a share as a percentage with one decimal', () => {
    expect(percent(0.653)).toBe('65.3%');
    expect(percent(0.02)).toBe('2.0%');
  });

  it('meets a target only with both recall and false alarms in bounds', () => {
    const target = { target_recall: 0.93, target_false_alarms: 0.02 };
    expect(meetsTarget({ recall: 0.95, false_alarms: 0.02, ...target })).toBe(true);
    expect(meetsTarget({ recall: 0.95, false_alarms: 0.021, ...target })).toBe(false);
    expect(meetsTarget({ recall: 0.929, false_alarms: 0.01, ...target })).toBe(false);
  });
});
