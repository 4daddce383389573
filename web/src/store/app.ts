import Cookies from 'js-cookie';
import { createStore } from './createStore';

/** Sidebar, device and size state, remembered in cookies as the spec asks. */
export type Device = 'desktop' | 'mobile';
export type LayoutSize = 'large' | 'medium' | 'small';

export const SIDEBAR_COOKIE = 'sidebarStatus';
export const SIZE_COOKIE = 'size';
export const SIDEBAR_WIDTH = 210;
export const SIDEBAR_COLLAPSED_WIDTH = 54;
export const MOBILE_BREAKPOINT = 992;
const SIZES: LayoutSize[] = ['large', 'medium', 'small'];

export interface AppState {
  sidebarOpened: boolean;
  /** Set when the sidebar closes because the window became narrow, not by the user. */
  withoutAnimation: boolean;
  device: Device;
  size: LayoutSize;
}

export function readAppState(): AppState {
  const size = Cookies.get(SIZE_COOKIE) as LayoutSize | undefined;
  return {
    // Default open: only an explicit '0' closes it.
    sidebarOpened: Cookies.get(SIDEBAR_COOKIE) !== '0',
    withoutAnimation: false,
    device: 'desktop',
    size: size && SIZES.includes(size) ? size : 'medium',
  };
}

const { store, useStore } = createStore<AppState>(readAppState());
export const appStore = store;
export const useAppStore = useStore;

/** The cookie keeps the desktop sidebar's state; the mobile drawer opening and closing leaves it alone. */
function rememberSidebar(opened: boolean) {
  if (store.get().device === 'desktop') Cookies.set(SIDEBAR_COOKIE, opened ? '1' : '0');
}

export const appActions = {
  toggleSidebar() {
    const opened = !store.get().sidebarOpened;
    rememberSidebar(opened);
    store.set({ sidebarOpened: opened, withoutAnimation: false });
  },
  closeSidebar(withoutAnimation: boolean) {
    rememberSidebar(false);
    store.set({ sidebarOpened: false, withoutAnimation });
  },
  setDevice(device: Device) {
    if (device === store.get().device) return;
    // Back on a desktop the sidebar is as the user last left it there.
    store.set(device === 'desktop' ? { device, sidebarOpened: Cookies.get(SIDEBAR_COOKIE) !== '0' } : { device });
  },
  setSize(size: LayoutSize) {
    Cookies.set(SIZE_COOKIE, size);
    store.set({ size });
  },
};

/** antd's name for each layout size. */
export const ANTD_SIZE: Record<LayoutSize, 'large' | 'middle' | 'small'> = {
  large: 'large',
  medium: 'middle',
  small: 'small',
};
