import { isValidElement, lazy, Suspense, type ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { Spin } from 'antd';

function PageLoading() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: '80px 0' }}>
      <Spin />
    </div>
  );
}

const loaders = new WeakMap<object, () => Promise<unknown>>();

/** Wraps a dynamic import so each page becomes its own chunk, loaded on first visit (or by `preloadPages`). */
export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const once = () => (loading ??= load());
  const Page = lazy(once);
  function LazyPage(props: P) {
    return (
      <Suspense fallback={<PageLoading />}>
        <Page {...props} />
      </Suspense>
    );
  }
  loaders.set(LazyPage, once);
  return LazyPage;
}

/**
 * Starts loading every lazy page the matched routes render, all at once. Rendered, nested pages (the
 * layout, then the page inside it) would each ask for their chunk only once the outer one has arrived.
 */
export function preloadPages(matches: readonly { route: RouteObject }[] | null): void {
  for (const { route } of matches ?? []) {
    const load = isValidElement(route.element) ? loaders.get(route.element.type as object) : undefined;
    void load?.();
  }
}
