import { createStore } from './createStore';

/** Settings-panel choices, kept in local storage so they survive a new login. */
export interface Settings {
  /** null follows the brand's theme colour. */
  themeColor: string | null;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
}

const STORAGE_KEY = 'powerportal-settings';
const DEFAULTS: Settings = { themeColor: null, tagsView: true, fixedHeader: true, sidebarLogo: true };

function load(): Settings {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    return raw ? { ...DEFAULTS, ...(JSON.parse(raw) as Partial<Settings>) } : DEFAULTS;
  } catch {
    return DEFAULTS;
  }
}

const { store, useStore } = createStore<Settings>(load());
export const settingsStore = store;
export const useSettings = useStore;

export function changeSetting<K extends keyof Settings>(key: K, value: Settings[K]): void {
  store.set({ [key]: value } as Partial<Settings>);
  localStorage.setItem(STORAGE_KEY, JSON.stringify(store.get()));
}
