import { describe, expect, it } from 'vitest';
import { describeSchedule } from './schedule';

describe('describeSchedule', () => {
  it('names the weekdays and times of a weekly task', () => {
    expect(describeSchedule({ repeat: 'weekly', weekdays: [1, 3], times: ['08:00', '20:00'], run_at: null })).toBe(
      '每周一、周三 08:00、20:00',
    );
  });
  it('says every day when all seven are chosen', () => {
    expect(describeSchedule({ repeat: 'weekly', weekdays: [1, 2, 3, 4, 5, 6, 7], times: ['07:30'], run_at: null })).toBe(
      '每天 07:30',
    );
  });
  it('shows the date and minute of a one-off task', () => {
    expect(describeSchedule({ repeat: 'once', weekdays: [], times: [], run_at: '2026-11-22 08:00:00' })).toBe(
      '单次 2026-11-22 08:00',
    );
  });
});
