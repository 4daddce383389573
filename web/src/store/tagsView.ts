import { createStore } from './createStore';

/** Tab history: the pages the user opened, shown as tags above the content. */
export interface VisitedView {
  path: string;
  title: string;
  /** Affixed tags (the dashboard) cannot be closed. */
  affix?: boolean;
}

export const DASHBOARD_VIEW: VisitedView = { path: '/dashboard', title: '数据监控', affix: true };

// Kept per browser tab, like the login itself, so a reload keeps the tab history.
const STORAGE_KEY = 'powerportal-tags';

function load(): VisitedView[] {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]') as VisitedView[];
    return [DASHBOARD_VIEW, ...saved.filter((v) => v.path !== DASHBOARD_VIEW.path)];
  } catch {
    return [DASHBOARD_VIEW];
  }
}

const { store, useStore } = createStore<{ views: VisitedView[] }>({ views: load() });
store.subscribe(() => sessionStorage.setItem(STORAGE_KEY, JSON.stringify(store.get().views.filter((v) => !v.affix))));
export const tagsStore = store;
export const useTags = useStore;

export const tagsActions = {
  add(view: VisitedView) {
    store.set(({ views }) => {
      const index = views.findIndex((v) => v.path === view.path);
      if (index >= 0) {
        if (views[index].title === view.title) return {};
        const next = views.slice();
        next[index] = { ...views[index], title: view.title };
        return { views: next };
      }
      return { views: [...views, view] };
    });
  },
  /** Removes a tag and answers the path to show next when it was the active one. */
  remove(path: string): string | undefined {
    const { views } = store.get();
    const index = views.findIndex((v) => v.path === path);
    if (index < 0 || views[index].affix) return undefined;
    const next = views.filter((v) => v.path !== path);
    store.set({ views: next });
    return (next[index - 1] ?? next[next.length - 1])?.path;
  },
  keepOnly(path: string) {
    store.set(({ views }) => ({ views: views.filter((v) => v.affix || v.path === path) }));
  },
  clear() {
    store.set(({ views }) => ({ views: views.filter((v) => v.affix) }));
  },
};
