import { lazy, Suspense, type ComponentType } from 'react';
import { Spin } from 'antd';

function PageLoading() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: '80px 0' }}>
      <Spin />
    </div>
  );
}

/** Wraps a dynamic import so each page becomes its own chunk, loaded on first visit. */
export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  const Page = lazy(load);
  return function LazyPage(props: P) {
    return (
      <Suspense fallback={<PageLoading />}>
        <Page {...props} />
      </Suspense>
    );
  };
}
