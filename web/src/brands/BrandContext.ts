import { createContext, useContext } from 'react';
import type { Brand } from '@/api/brand/types';
import { FALLBACK_BRAND } from './defaultBrand';

export const BrandContext = createContext<Brand>(FALLBACK_BRAND);

export function useBrand(): Brand {
  return useContext(BrandContext);
}
