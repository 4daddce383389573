import dayjs from 'dayjs';
import { sortOf, timeRange } from './listQuery';

describe('list queries', () => {
  it('sends an empty range side as null', () => {
    expect(timeRange(null)).toEqual({ start_time: null, end_time: null });
    expect(timeRange([dayjs('2026-11-21 08:00:00'), null])).toEqual({ start_time: '2026-11-21 08:00:00', end_time: null });
  });

  it('turns the table sorter into orderBy and sort', () => {
    expect(sortOf(undefined, 'offline_time')).toEqual({ orderBy: 'offline_time', sort: 'desc' });
    expect(sortOf({ columnKey: 'duration_seconds', order: 'ascend' }, 'offline_time')).toEqual({ orderBy: 'duration_seconds', sort: 'asc' });
    expect(sortOf({ columnKey: 'target_name', order: null }, 'offline_time')).toEqual({ orderBy: 'offline_time', sort: 'desc' });
  });
});
