import { Navigate, Outlet } from 'react-router';
import { useBrand } from '@/brands/BrandContext';

/** Alarm detail and statistics exist only for brands with the alarmDetail flag. */
export function AlarmDetailGate() {
  const { flags } = useBrand();
  return flags.alarmDetail ? <Outlet /> : <Navigate to="/404" replace />;
}
