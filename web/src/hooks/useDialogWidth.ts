import { useAppStore } from '@/store/app';

/** A dialog's width: `desktop` pixels, or the whole width under the mobile breakpoint. */
export function useDialogWidth(desktop: number): number | string {
  return useAppStore((s) => (s.device === 'mobile' ? '100%' : desktop));
}
