/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const gatewayUrl = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      // The browser only ever talks to /api; the gateway sets the httpOnly cookies.
      '/api': { target: gatewayUrl, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: gatewayUrl, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      treeshake: {
        // proto builds TypeBox schemas at module top level (`Type.Object(…)`, and `ROLES.map(…)` for
        // RoleSchema). They are pure, but the bundler cannot know, so a page that only needs MESSAGES
        // or a route string would ship all of TypeBox (about 11 kB gzip). Proto could mark them
        // /*#__PURE__*/ instead; until then this says so here.
        manualPureFunctions: ['Type', 'ROLES.map'],
      },
    },
  },
  test: {
    name: 'frontend',
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    // antd under jsdom is slow to import; a file's first test also compiles its lazy route chunks.
    testTimeout: 20_000,
    // Files share one module cache per worker: antd loads once instead of once per file (about 2x
    // faster). Safe because every test builds its own store, router and DOM, and setup resets storage.
    isolate: false,
  },
});
