import { brandWith } from '@/test/render';
import { sidebarMenu } from './menu';

describe('sidebar menu', () => {
  it('shows alarm statistics only where the brand has alarmDetail', () => {
    const keys = (alarmDetail: boolean) => sidebarMenu(brandWith({ alarmDetail }).flags).map((e) => e.key);
    expect(keys(true)).toContain('/user-manage/alarm');
    expect(keys(false)).not.toContain('/user-manage/alarm');
    expect(keys(false)).toContain('/user-manage/alarm-manage');
  });
});
