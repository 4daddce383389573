import type { BrandRead } from '@/api/schema';

export type { BrandFlags } from '@/api/schema';

/** The deployment's brand variant: titles, logo, footer, theme colour and feature flags. */
export type Brand = BrandRead;
