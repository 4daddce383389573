import { useEffect } from 'react';
import { useBrand } from '@/brands/BrandContext';

/** The document title rule: `${pageTitle} - ${product_name}`, or the product name alone. */
export function pageTitle(title: string | undefined, productName: string): string {
  return title ? `${title} - ${productName}` : productName;
}

export function usePageTitle(title: string | undefined): void {
  const { product_name } = useBrand();
  useEffect(() => {
    document.title = pageTitle(title, product_name);
  }, [title, product_name]);
}
