import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { percent, toQuery, watts } from './filters';

describe('load-identify filters', () => {
  it('sends empty filters as null and the newest events first', () => {
    expect(toQuery({ keyword: '  ', appliance: '' }, { pageIndex: 2, pageSize: 10 })).toEqual({
      pageIndex: 2,
      pageSize: 10,
      project_sysno: null,
      appliance: null,
      forbidden: null,
      action: null,
      start_time: null,
      end_time: null,
      keyword: null,
      orderBy: 'event_time',
      sort: 'desc',
    });
  });

  it('keeps the chosen filters and the sorted column', () => {
    const range = [dayjs('2026-11-20 08:00:00'), dayjs('2026-11-21 18:30:00')] as const;
    const query = toQuery(
      { project_sysno: 3, appliance: '电水壶', forbidden: 0, action: 'trip', keyword: ' 101 ', range: [range[0], range[1]] },
      { pageIndex: 1, pageSize: 20, orderBy: 'power', sort: 'asc' },
    );
    expect(query).toMatchObject({ project_sysno: 3, appliance: '电水壶', forbidden: 0, action: 'trip', keyword: '101', orderBy: 'power', sort: 'asc' });
    expect(query.start_time).toBe('2026-11-20 08:00:00');
    expect(query.end_time).toBe('2026-11-21 18:30:00');
  });

  it('shows confidence and power as people read them', () => {
    expect(percent(0.974)).toBe('97%');
    expect(watts(1850.4)).toBe('1,850 W');
  });
});
