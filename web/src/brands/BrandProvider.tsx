import { useEffect, type ReactNode } from 'react';
import { Spin } from 'antd';
import { useBrandQuery } from '@/api/brand/queries';
import { imageUrl } from '@/config/env';
import { BrandContext } from './BrandContext';
import { FALLBACK_BRAND } from './defaultBrand';

function applyFavicon(href: string): void {
  let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'icon';
    document.head.appendChild(link);
  }
  link.href = href;
}

/** Loads the brand variant once and hands it to the whole app. */
export function BrandProvider({ children }: { children: ReactNode }) {
  const { data, isPending } = useBrandQuery();
  const brand = data ?? FALLBACK_BRAND;

  useEffect(() => {
    if (brand.favicon) applyFavicon(imageUrl(brand.favicon));
  }, [brand.favicon]);

  if (isPending) {
    return <Spin fullscreen />;
  }
  return <BrandContext.Provider value={brand}>{children}</BrandContext.Provider>;
}
