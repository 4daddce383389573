import { fitColumns, readChoices, writeChoices, type FitColumn } from './fit';

const COLUMNS: FitColumn[] = [
  { key: 'time', width: 180, keep: true },
  { key: 'project', width: 120, rank: 5 },
  { key: 'state', width: 90, keep: true },
  { key: 'detail' },
  { key: 'action', width: 80, rank: 0 },
];

describe('fitColumns', () => {
  it('shows every column the user has not hidden while the box is not measured', () => {
    expect([...fitColumns(COLUMNS, null, { project: false })]).toEqual(['time', 'state', 'detail', 'action']);
  });

  it('keeps the key columns and fills the rest by rank', () => {
    // 180 + 90 key, then action (rank 0, 80) = 350; detail (rank 3, 140) does not fit in 400, project (120) does not either.
    expect(fitColumns(COLUMNS, 400, {})).toEqual(new Set(['time', 'state', 'action']));
    expect(fitColumns(COLUMNS, 490, {})).toEqual(new Set(['time', 'state', 'action', 'detail']));
  });

  it('keeps key columns even in a box too narrow for them', () => {
    expect(fitColumns(COLUMNS, 100, {})).toEqual(new Set(['time', 'state']));
  });

  it('follows the user: chosen columns show beyond the width, hidden ones never', () => {
    expect(fitColumns(COLUMNS, 300, { project: true, action: false })).toEqual(new Set(['time', 'state', 'project']));
    expect(fitColumns(COLUMNS, 300, { time: false }).has('time')).toBe(true);
  });
});

describe('column choices in localStorage', () => {
  afterEach(() => localStorage.clear());

  it('round-trips and forgets an empty choice', () => {
    writeChoices('alarms', { detail: true, project: false });
    expect(readChoices('alarms')).toEqual({ detail: true, project: false });
    writeChoices('alarms', {});
    expect(localStorage.getItem('pp.columns.alarms')).toBeNull();
  });

  it('ignores what is not a choice', () => {
    localStorage.setItem('pp.columns.a', 'not json');
    localStorage.setItem('pp.columns.b', JSON.stringify({ x: 'yes', y: true }));
    localStorage.setItem('pp.columns.c', JSON.stringify([true]));
    expect(readChoices('a')).toEqual({});
    expect(readChoices('b')).toEqual({ y: true });
    expect(readChoices('c')).toEqual({});
  });
});
