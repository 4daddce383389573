import { render, screen } from '@testing-library/react';
import { matchRoutes, type RouteObject } from 'react-router';
import { lazyPage, preloadPages } from './lazyPage';

function page(text: string) {
  const load = vi.fn(async () => ({ default: () => <p>{text}</p> }));
  return { load, Page: lazyPage(load) };
}

describe('preloadPages', () => {
  it('starts every matched page at once, and each only once', async () => {
    const layout = page('布局');
    const inner = page('页面');
    const other = page('别处');
    const routes: RouteObject[] = [
      {
        path: '/',
        element: <layout.Page />,
        children: [
          { path: 'a', element: <inner.Page /> },
          { path: 'b', element: <other.Page /> },
        ],
      },
    ];
    preloadPages(matchRoutes(routes, '/a'));
    expect(layout.load).toHaveBeenCalledTimes(1);
    expect(inner.load).toHaveBeenCalledTimes(1); // not after the layout: beside it
    expect(other.load).not.toHaveBeenCalled();
    preloadPages(matchRoutes(routes, '/a'));
    render(<inner.Page />);
    expect(await screen.findByText('页面')).toBeInTheDocument();
    expect(inner.load).toHaveBeenCalledTimes(1); // the page renders from the preloaded chunk
  });

  it('ignores what is not a lazy page, and no match at all', () => {
    const routes: RouteObject[] = [{ path: '/x', element: <p>x</p> }, { path: '/y' }];
    expect(() => preloadPages(matchRoutes(routes, '/x'))).not.toThrow();
    expect(() => preloadPages(matchRoutes(routes, '/y'))).not.toThrow();
    expect(() => preloadPages(matchRoutes(routes, '/nowhere'))).not.toThrow();
  });
});
