import Cookies from 'js-cookie';
import { appActions, appStore, readAppState, SIDEBAR_COOKIE, SIDEBAR_WIDTH, SIZE_COOKIE } from './app';

describe('sidebar state in cookies', () => {
  beforeEach(() => {
    Cookies.remove(SIDEBAR_COOKIE);
    Cookies.remove(SIZE_COOKIE);
  });

  it('defaults to open, medium size, 210 px wide', () => {
    expect(readAppState()).toMatchObject({ sidebarOpened: true, size: 'medium', device: 'desktop' });
    expect(SIDEBAR_WIDTH).toBe(210);
  });

  it('remembers a closed sidebar and the chosen size', () => {
    appStore.set({ sidebarOpened: true });
    appActions.toggleSidebar();
    appActions.setSize('small');
    expect(Cookies.get(SIDEBAR_COOKIE)).toBe('0');
    expect(readAppState()).toMatchObject({ sidebarOpened: false, size: 'small' });
  });

  it('ignores an unknown size', () => {
    Cookies.set(SIZE_COOKIE, 'huge');
    expect(readAppState().size).toBe('medium');
  });
});
