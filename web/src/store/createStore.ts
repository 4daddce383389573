import { useSyncExternalStore } from 'react';

/** A tiny observable store for UI state (server state lives in React Query). */
export function createStore<S>(initial: S) {
  let state = initial;
  const listeners = new Set<() => void>();
  const store = {
    get: () => state,
    set(update: Partial<S> | ((current: S) => Partial<S>)) {
      const patch = typeof update === 'function' ? update(state) : update;
      state = { ...state, ...patch };
      listeners.forEach((listener) => listener());
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const useStore = <T,>(select: (s: S) => T): T => useSyncExternalStore(store.subscribe, () => select(state), () => select(state));
  return { store, useStore };
}
