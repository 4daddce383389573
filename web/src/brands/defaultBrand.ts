import type { BrandRead } from '@/api/schema';

export const DEFAULT_THEME_COLOR = '#409EFF';

/** Shown only while /api/brand cannot be read; every flag stays off so nothing appears that may not work. */
export const FALLBACK_BRAND: BrandRead = {
  type: 0,
  product_name: '智慧用电云平台',
  title: '智慧用电云平台',
  login_title: '智慧用电云平台',
  logo: '',
  favicon: '',
  footer: '',
  theme_color: DEFAULT_THEME_COLOR,
  flags: {
    adminAuth: false,
    alarmDetail: false,
    loadWaveform: false,
    eletricList: false,
    productModal: false,
    map: false,
    SmsCode: false,
    SmsConfig: false,
  },
};
