import type { ReactNode } from 'react';
import { Card, Typography } from 'antd';
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
      <Card title={title} className={styles.card}>
        {children}
      </Card>
      {brand.footer && <div className={styles.footer}>{brand.footer}</div>}
    </div>
  );
}
