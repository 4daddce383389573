import { Navigate, Outlet } from 'react-router';
import { useBrand } from '@/brands/BrandContext';

/** 电费管理 exists only for brands with the eletricList flag. */
export function ElectricityGate() {
  const { flags } = useBrand();
  return flags.eletricList ? <Outlet /> : <Navigate to="/404" replace />;
}
