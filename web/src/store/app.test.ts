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

describe('the mobile drawer and the desktop sidebar', () => {
  beforeEach(() => {
    Cookies.remove(SIDEBAR_COOKIE);
    appStore.set({ device: 'desktop', sidebarOpened: true });
  });

  it('opening and closing the mobile menu leaves the desktop sidebar open', () => {
    appActions.setDevice('mobile');
    appActions.closeSidebar(true);
    appActions.toggleSidebar();
    expect(appStore.get().sidebarOpened).toBe(true);
    appActions.closeSidebar(false);
    expect(Cookies.get(SIDEBAR_COOKIE)).toBeUndefined();
    appActions.setDevice('desktop');
    expect(appStore.get().sidebarOpened).toBe(true);
  });

  it('a desktop sidebar closed by the user stays closed after a visit to the phone layout', () => {
    appActions.toggleSidebar();
    expect(Cookies.get(SIDEBAR_COOKIE)).toBe('0');
    appActions.setDevice('mobile');
    appActions.toggleSidebar();
    appActions.setDevice('desktop');
    expect(appStore.get().sidebarOpened).toBe(false);
  });
});
