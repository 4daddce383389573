import { brandWith } from '@/test/render';
import { settingMenu, sidebarMenu } from './menu';

describe('sidebar menu', () => {
  it('shows alarm statistics only where the brand has alarmDetail', () => {
    const keys = (alarmDetail: boolean) => sidebarMenu(brandWith({ alarmDetail }).flags).map((e) => e.key);
    expect(keys(true)).toContain('/user-manage/alarm');
    expect(keys(false)).not.toContain('/user-manage/alarm');
    expect(keys(false)).toContain('/user-manage/alarm-manage');
  });

  it('shows 电费管理 only where the brand has eletricList', () => {
    const entry = (eletricList: boolean) => sidebarMenu(brandWith({ eletricList }).flags).find((e) => e.key === '/user-manage/electricity');
    expect(entry(true)?.label).toBe('电费管理');
    expect(entry(false)).toBeUndefined();
  });

  it('offers 电价管理 in system management, whatever the brand', () => {
    for (const SmsConfig of [true, false]) {
      const entry = settingMenu(brandWith({ SmsConfig }).flags).find((e) => e.key === '/user-manage/setting/tariff-list');
      expect(entry?.label).toBe('电价管理');
    }
  });
});
