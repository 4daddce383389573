import { useQuery } from '@tanstack/react-query';
import { http, queryKey } from '@/api/core';
import type { BrandRead } from '@/api/schema';

export const brandKeys = {
  current: queryKey('brand'),
};

export function fetchBrand(): Promise<BrandRead> {
  return http.get('/api/brand');
}

/** The deployment's brand variant; it does not change while the page is open. */
export function useBrandQuery() {
  return useQuery({ queryKey: brandKeys.current, queryFn: fetchBrand, staleTime: Infinity, retry: 1 });
}
