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

export function TitleSync() {
  usePageTitle(useRouteTitle());
  return null;
}
