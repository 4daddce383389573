import { useMatches } from 'react-router';
import { usePageTitle } from '@/hooks/usePageTitle';
import type { RouteHandle } from './routes';

/** The deepest matched route's title, for the document title and the tags view. */
export function useRouteTitle(): string | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const title = (matches[i].handle as RouteHandle | undefined)?.title;
    if (title) return title;
  }
  return undefined;
}

/** The title of the matched page itself; undefined on routes that only redirect (index redirects). */
export function useLeafTitle(): string | undefined {
  const matches = useMatches();
  return (matches[matches.length - 1]?.handle as RouteHandle | undefined)?.title;
}

export function TitleSync() {
  usePageTitle(useRouteTitle());
  return null;
}
