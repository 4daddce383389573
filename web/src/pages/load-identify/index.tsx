import ComingSoon from '@/components/ComingSoon';
import { routeTitles } from '@/locales/zh-CN';

/** Placeholder until its issue lands (the screen says so). */
export default function Page() {
  return <ComingSoon title={routeTitles['load-identify']} />;
}
