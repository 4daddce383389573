import { DASHBOARD_VIEW, tagsActions, tagsStore } from './tagsView';

describe('tab history', () => {
  beforeEach(() => tagsActions.clear());

  it('keeps the dashboard and adds each page once', () => {
    tagsActions.add({ path: '/user-manage/eng', title: '能耗统计' });
    tagsActions.add({ path: '/user-manage/eng', title: '能耗统计' });
    tagsActions.add({ path: '/user-manage/report', title: '报表统计' });
    expect(tagsStore.get().views.map((v) => v.path)).toEqual(['/dashboard', '/user-manage/eng', '/user-manage/report']);
  });

  it('never closes the dashboard and answers the neighbour to show next', () => {
    tagsActions.add({ path: '/a', title: 'A' });
    tagsActions.add({ path: '/b', title: 'B' });
    expect(tagsActions.remove('/dashboard')).toBeUndefined();
    expect(tagsActions.remove('/b')).toBe('/a');
    expect(tagsStore.get().views).toHaveLength(2);
  });

  it('closes the others or all but the dashboard', () => {
    tagsActions.add({ path: '/a', title: 'A' });
    tagsActions.add({ path: '/b', title: 'B' });
    tagsActions.keepOnly('/b');
    expect(tagsStore.get().views.map((v) => v.path)).toEqual(['/dashboard', '/b']);
    tagsActions.clear();
    expect(tagsStore.get().views).toEqual([DASHBOARD_VIEW]);
  });

  it('survives a reload through session storage', () => {
    tagsActions.add({ path: '/a', title: 'A' });
    expect(JSON.parse(sessionStorage.getItem('powerportal-tags') ?? '[]')).toEqual([{ path: '/a', title: 'A' }]);
  });
});
