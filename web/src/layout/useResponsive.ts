import { useEffect } from 'react';
import { appActions, appStore, MOBILE_BREAKPOINT } from '@/store/app';

export function isMobileWidth(width: number): boolean {
  return width < MOBILE_BREAKPOINT;
}

/** Switches between the desktop and mobile layouts at the 992 px breakpoint. */
export function useResponsive(): void {
  useEffect(() => {
    function update() {
      const mobile = isMobileWidth(document.body.getBoundingClientRect().width || window.innerWidth);
      appActions.setDevice(mobile ? 'mobile' : 'desktop');
      // The drawer starts closed on a phone (the desktop sidebar's cookie stays as it was).
      if (mobile && appStore.get().sidebarOpened) appActions.closeSidebar(true);
    }
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, []);
}
