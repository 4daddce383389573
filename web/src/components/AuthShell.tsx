import type { ReactNode } from 'react';
import { Typography } from 'antd';
import { useBrand } from '@/brands/BrandContext';
import { imageUrl } from '@/config/env';
import styles from './AuthShell.module.css';

/** The frame of the public screens: brand logo and login title above a card, footer below. */
export function AuthShell({ title, children }: { title: string; children: ReactNode }) {
  const brand = useBrand();
  return (
    <div className={styles.page}>
      <div className={styles.brand}>
        <img src={brand.logo ? imageUrl(brand.logo) : '/favicon.svg'} alt="" className={styles.logo} />
        <Typography.Title level={3} className={styles.brandTitle}>
          {brand.login_title || brand.product_name}
        </Typography.Title>
      </div>
      {/* A plain panel rather than antd's Card, whose tab support would pull tabs, menus and
          dropdowns into the login page's first load. */}
      <section className={styles.card} aria-label={title}>
        <h2 className={styles.cardTitle}>{title}</h2>
        <div className={styles.cardBody}>{children}</div>
      </section>
      {brand.footer && <div className={styles.footer}>{brand.footer}</div>}
    </div>
  );
}
