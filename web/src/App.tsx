import { useEffect, useMemo } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { App as AntdApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { setNotifier } from '@/api/core';
import { BrandProvider } from '@/brands/BrandProvider';
import { useBrand } from '@/brands/BrandContext';
import { DEFAULT_THEME_COLOR } from '@/brands/defaultBrand';
import { ANTD_SIZE, useAppStore } from '@/store/app';
import { useSettings } from '@/store/settings';
import { routes } from '@/router/routes';

dayjs.locale('zh-cn');

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // The client already toasts every failure; retrying would toast again.
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

/** Hands antd's context-aware toast API to the HTTP client. */
function NotifierBridge() {
  const { message } = AntdApp.useApp();
  useEffect(() => setNotifier(message), [message]);
  return null;
}

function ThemedApp() {
  const brand = useBrand();
  const themeColor = useSettings((s) => s.themeColor);
  const size = useAppStore((s) => s.size);
  const router = useMemo(() => createBrowserRouter(routes), []);
  const colorPrimary = themeColor ?? (brand.theme_color || DEFAULT_THEME_COLOR);

  useEffect(() => {
    document.documentElement.style.setProperty('--pp-primary', colorPrimary);
  }, [colorPrimary]);

  return (
    <ConfigProvider locale={zhCN} componentSize={ANTD_SIZE[size]} theme={{ token: { colorPrimary } }}>
      <AntdApp>
        <NotifierBridge />
        <RouterProvider router={router} />
      </AntdApp>
    </ConfigProvider>
  );
}

export default function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={zhCN}>
        <BrandProvider>
          <ThemedApp />
        </BrandProvider>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
