import dayjs from 'dayjs';
import type { VersionRead } from '@/api/schema';
import { paintSlots, uniformSlots } from './slots';
import { draftFrom, monthProblems, nextVersion, priceProblems, toVersionWrite, versionInForce } from './version';

const VERSION: VersionRead = {
  sysno: 1,
  effective_date: '2024-01-01',
  prices: { sharp: 1.3682, peak: 1.1402, flat: 0.6743, valley: 0.2698, deep: null },
  seasons: [
    { name: '夏季', months: [7, 8, 9], slots: paintSlots(uniformSlots(), 22, 23, 0) },
    { name: '其他', months: [1, 2, 3, 4, 5, 6, 10, 11, 12], slots: paintSlots(uniformSlots(), 0, 15, 3) },
  ],
  holidays: { dates: ['2027-02-07', '2027-02-06'], slots: uniformSlots() },
  editable: false,
};

describe('a tariff version in the editor', () => {
  it('starts a new plan from one all-year season of 平 without prices', () => {
    const draft = draftFrom(undefined, dayjs('2026-06-01'));
    expect(draft.seasons).toHaveLength(1);
    expect(draft.seasons[0].months).toHaveLength(12);
    expect(monthProblems(draft.seasons)).toEqual([]);
    expect(priceProblems(draft)).toEqual(['已使用“平”时段，请填写其电价']);
  });

  it('copies a version into a new one from another date and writes it back as the API takes it', () => {
    const draft = draftFrom(VERSION, dayjs('2026-07-01'));
    draft.holidayDates.push(dayjs('2027-02-06'));
    const written = toVersionWrite(draft);
    expect(written.effective_date).toBe('2026-07-01');
    expect(written.prices).toEqual({ sharp: 1.3682, peak: 1.1402, flat: 0.6743, valley: 0.2698, deep: null });
    expect(written.seasons[1].months).toEqual([1, 2, 3, 4, 5, 6, 10, 11, 12]);
    expect(written.holidays).toEqual({ dates: ['2027-02-06', '2027-02-07'], slots: uniformSlots() });
    expect(toVersionWrite({ ...draft, holidaysOn: false }).holidays).toBeNull();
    // the copy is a copy
    draft.seasons[0].months.push(1);
    expect(VERSION.seasons[0].months).toEqual([7, 8, 9]);
  });

  it('names the months in no season and in two seasons', () => {
    expect(monthProblems([{ months: [1, 2, 3] }, { months: [3, 4, 5, 6, 7, 8, 9, 10, 11] }])).toEqual([
      '12月 未归入任何季节',
      '3月 归入了多个季节',
    ]);
  });

  it('asks for the price of every period a table uses, holidays included when on', () => {
    const draft = draftFrom(VERSION, dayjs('2026-07-01'));
    expect(priceProblems(draft)).toEqual([]);
    const deepHoliday = { ...draft, holidaySlots: paintSlots(uniformSlots(), 22, 25, 4) };
    expect(priceProblems(deepHoliday)).toEqual(['已使用“深谷”时段，请填写其电价']);
    expect(priceProblems({ ...deepHoliday, holidaysOn: false })).toEqual([]);
  });

  it('finds the version in force and the next one', () => {
    const later = { ...VERSION, sysno: 2, effective_date: '2026-09-01', editable: true };
    expect(versionInForce([later, VERSION], '2026-05-14')?.sysno).toBe(1);
    expect(versionInForce([later, VERSION], '2026-09-01')?.sysno).toBe(2);
    expect(versionInForce([later], '2026-05-14')).toBeUndefined();
    expect(nextVersion([later, VERSION], '2026-05-14')?.sysno).toBe(2);
    expect(nextVersion([VERSION], '2026-05-14')).toBeUndefined();
  });
});
