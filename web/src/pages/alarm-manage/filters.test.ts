import dayjs from 'dayjs';
import { durationText, processable, toQuery } from './filters';

describe('alarm filters', () => {
  it('sends empty filters as null and formats the time range', () => {
    expect(toQuery({}, { pageIndex: 2, pageSize: 20 })).toEqual({
      pageIndex: 2,
      pageSize: 20,
      project_sysno: null,
      alarm_type: null,
      state: null,
      process_state: null,
      start_time: null,
      end_time: null,
      keyword: null,
      orderBy: 'start_time',
      sort: 'desc',
    });
    const query = toQuery(
      { state: 0, process_state: 1, keyword: '  宿舍 ', range: [dayjs('2026-11-20 08:00:00'), dayjs('2026-11-21 09:30:00')] },
      { pageIndex: 1, pageSize: 10 },
    );
    expect(query).toMatchObject({ state: 0, process_state: 1, keyword: '宿舍', start_time: '2026-11-20 08:00:00', end_time: '2026-11-21 09:30:00' });
  });

  it('processes only selected alarms that are not processed yet', () => {
    const rows = [
      { sysno: 1, process_state: 0 },
      { sysno: 2, process_state: 1 },
      { sysno: 3, process_state: 0 },
    ];
    expect(processable(rows, [1, 2])).toEqual([1]);
    expect(processable(rows, [2])).toEqual([]);
  });

  it('writes durations the way the logs do', () => {
    expect(durationText(45)).toBe('45秒');
    expect(durationText(125)).toBe('2分5秒');
    expect(durationText(3900)).toBe('1小时5分');
    expect(durationText(90061)).toBe('1天1小时');
    expect(durationText(-3)).toBe('0秒');
  });
});
