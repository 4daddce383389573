export interface BrandFlags {
  adminAuth: boolean;
  alarmDetail: boolean;
  loadWaveform: boolean;
  eletricList: boolean;
  productModal: boolean;
  map: boolean;
  SmsCode: boolean;
  SmsConfig: boolean;
}

export interface Brand {
  type: number;
  product_name: string;
  title: string;
  login_title: string;
  logo: string;
  favicon: string;
  footer: string;
  theme_color: string;
  flags: BrandFlags;
}
