import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

// antd reads these browser APIs that jsdom lacks.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}
if (!window.ResizeObserver) {
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}
const originalGetComputedStyle = window.getComputedStyle;
// jsdom does not do pseudo-elements; antd asks for them only to measure scrollbars.
window.getComputedStyle = (elt: Element) => originalGetComputedStyle(elt);

// Lazy routes load real chunks; give them time on a busy machine.
configure({ asyncUtilTimeout: 10_000 });
