import { useEffect, useMemo } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { BrandProvider } from '@/brands/BrandProvider';
import { FeedbackProvider } from '@/components/Feedback';
import { useBrand } from '@/brands/BrandContext';
import { DEFAULT_THEME_COLOR } from '@/brands/defaultBrand';
import { brandTheme } from '@/brands/theme';
import { ANTD_SIZE, useAppStore } from '@/store/app';
import { useSettings } from '@/store/settings';
import { preloadPages } from '@/router/lazyPage';
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

function ThemedApp() {
  const brand = useBrand();
  const themeColor = useSettings((s) => s.themeColor);
  const size = useAppStore((s) => s.size);
  const router = useMemo(() => {
    const created = createBrowserRouter(routes);
    preloadPages(created.state.matches);
    created.subscribe((state) => preloadPages(state.matches));
    return created;
  }, []);
  const colorPrimary = themeColor ?? (brand.theme_color || DEFAULT_THEME_COLOR);
  const theme = useMemo(() => brandTheme(colorPrimary), [colorPrimary]);

  useEffect(() => {
    document.documentElement.style.setProperty('--pp-primary', colorPrimary);
  }, [colorPrimary]);

  return (
    <ConfigProvider locale={zhCN} componentSize={ANTD_SIZE[size]} theme={theme}>
      <FeedbackProvider>
        <RouterProvider router={router} />
      </FeedbackProvider>
    </ConfigProvider>
  );
}

export default function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={zhCN} theme={brandTheme(DEFAULT_THEME_COLOR)}>
        <BrandProvider>
          <ThemedApp />
        </BrandProvider>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
