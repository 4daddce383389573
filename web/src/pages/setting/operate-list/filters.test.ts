import dayjs from 'dayjs';
import { PAGE_SIZES } from '@/utils/listQuery';
import { toQuery } from './filters';

describe('operation log request', () => {
  it('sends empty filters as null, newest first', () => {
    expect(toQuery({}, { pageIndex: 1, pageSize: 10 })).toEqual({
      pageIndex: 1,
      pageSize: 10,
      operate_type: null,
      start_time: null,
      end_time: null,
      orderBy: 'create_time',
      sort: 'desc',
    });
  });

  it('sends the type and the time range as YYYY-MM-DD HH:mm:ss', () => {
    const range: [dayjs.Dayjs, dayjs.Dayjs] = [dayjs('2026-11-01 08:00:00'), dayjs('2026-11-21 18:30:05')];
    expect(toQuery({ operate_type: 3, range }, { pageIndex: 2, pageSize: 20 }, 'asc')).toMatchObject({
      pageIndex: 2,
      pageSize: 20,
      operate_type: 3,
      start_time: '2026-11-01 08:00:00',
      end_time: '2026-11-21 18:30:05',
      sort: 'asc',
    });
  });

  it('offers the page sizes 10, 20, 30, 50', () => {
    expect(PAGE_SIZES).toEqual([10, 20, 30, 50]);
  });
});
