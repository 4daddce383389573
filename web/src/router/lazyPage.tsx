import { lazy, Suspense, type ComponentType } from 'react';
import { Spin } from 'antd';

/** Wraps a dynamic import so each page becomes its own chunk, loaded on first visit. */
export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  const Page = lazy(load);
  return function LazyPage(props: P) {
    return (
      <Suspense fallback={<Spin style={{ display: 'block', margin: '80px auto' }} />}>
        <Page {...props} />
      </Suspense>
    );
  };
}
