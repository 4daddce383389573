import { createContext, useContext } from 'react';
import type { BrandRead } from '@/api/schema';
import { FALLBACK_BRAND } from './defaultBrand';

export const BrandContext = createContext<BrandRead>(FALLBACK_BRAND);

export function useBrand(): BrandRead {
  return useContext(BrandContext);
}
