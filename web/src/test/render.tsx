import type { ReactElement, ReactNode } from 'react';
import { render } from '@testing-library/react';
import { App as AntdApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import type { BrandFlags, BrandRead } from '@/api/schema';
import { createQueryClient } from '@/App';
import { BrandContext } from '@/brands/BrandContext';
import { FeedbackProvider } from '@/components/Feedback';
import { FALLBACK_BRAND } from '@/brands/defaultBrand';

export function brandWith(flags: Partial<BrandFlags>): BrandRead {
  return { ...FALLBACK_BRAND, product_name: '测试平台', flags: { ...FALLBACK_BRAND.flags, ...flags } };
}

function Providers({ brand, children }: { brand: BrandRead; children: ReactNode }) {
  return (
    <QueryClientProvider client={createQueryClient()}>
      <BrandContext.Provider value={brand}>
        <ConfigProvider locale={zhCN}>
          <FeedbackProvider>
            <AntdApp component={false}>{children}</AntdApp>
          </FeedbackProvider>
        </ConfigProvider>
      </BrandContext.Provider>
    </QueryClientProvider>
  );
}

/** Renders an element inside the app's providers and a memory router at `path`. */
export function renderInApp(element: ReactElement, { brand = FALLBACK_BRAND, path = '/' } = {}) {
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [path] });
  return { router, ...render(<Providers brand={brand}><RouterProvider router={router} /></Providers>) };
}

/** Renders a route table (e.g. the app's own) inside the providers, starting at `path`. */
export function renderRoutes(routes: RouteObject[], { brand = FALLBACK_BRAND, path = '/' } = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  return { router, ...render(<Providers brand={brand}><RouterProvider router={router} /></Providers>) };
}

/** A fetch stub answering each API path with an envelope; unknown paths answer statusCode 404. */
export function stubApi(answers: Record<string, unknown>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, init });
    const path = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0];
    const body = path in answers
      ? { statusCode: 200, message: '操作成功', data: answers[path] }
      : { statusCode: 404, message: '接口不存在', data: null };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchStub);
  return { calls, fetchStub };
}
