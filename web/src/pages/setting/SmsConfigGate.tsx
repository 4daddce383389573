import { Navigate, Outlet } from 'react-router';
import { useBrand } from '@/brands/BrandContext';

/** The SMS settings screens exist only for brands with the SmsConfig flag. */
export function SmsConfigGate() {
  const { flags } = useBrand();
  return flags.SmsConfig ? <Outlet /> : <Navigate to="/404" replace />;
}
