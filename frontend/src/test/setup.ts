import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// The first render of a file compiles lazy route chunks on demand; give it time. A fresh-clone CI run
// under load took 5.9 s to compile the documents page's chunk in router.test.tsx; a wait that never
// succeeds still fails, 15 s later (the tests' own limit is 20 s).
configure({ asyncUtilTimeout: 15_000 });

// antd's responsive helpers call matchMedia, which jsdom lacks. Desktop by default;
// tests that need a small viewport override it with setViewportMobile().
function installMatchMedia(matches: (query: string) => boolean) {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: (query: string) => ({
      matches: matches(query),
      media: query,
      onchange: null,
      addListener: vi.fn(),
      removeListener: vi.fn(),
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
      dispatchEvent: vi.fn(),
    }),
  });
}
installMatchMedia(() => false);

export function setViewportMobile(): void {
  installMatchMedia((query) => query.includes('max-width'));
}

// antd's Tabs and Menu measure themselves; jsdom has no layout, so observing is a no-op.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// Node's Request rejects relative URLs; a browser resolves them against the page. fetchBaseQuery
// builds `new Request('/api/…')`, so give the tests the browser's behaviour.
const NodeRequest = globalThis.Request;
globalThis.Request = class extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href) : input, init);
  }
} as typeof Request;

afterEach(() => {
  cleanup();
  installMatchMedia(() => false);
  window.sessionStorage.clear();
  for (const cookie of document.cookie.split('; ')) {
    const name = cookie.split('=')[0];
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  }
  vi.unstubAllGlobals();
});
