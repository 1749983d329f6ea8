/// <reference types="vitest/config" />
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const gatewayUrl = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000';

/**
 * Writes `.br` and `.gz` beside every built asset worth compressing; the gateway serves them
 * (@fastify/static `preCompressed`), so the home page's 140 kB of gzip JS is what a visitor
 * downloads, not the 440 kB it unpacks to, with no compression work per request.
 */
function precompress(): Plugin {
  return {
    name: 'countinghouse-precompress',
    apply: 'build',
    writeBundle(options) {
      if (!options.dir) return;
      const dir = join(options.dir, 'assets');
      for (const name of readdirSync(dir)) {
        if (!/\.(js|css|svg|json)$/.test(name)) continue;
        const file = join(dir, name);
        const body = readFileSync(file);
        if (body.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
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
    // antd's stylesheet (zeroRuntime: antd-shell imports the built CSS) is put into jsdom's document as
    // the browser gets it: tests that read the rendered CSS or wait for a drawer's motion need it.
    css: { include: [/antd\/dist\/antd\.css$/] },
    restoreMocks: true,
    // antd under jsdom is slow to import; a file's first test also compiles its lazy route chunks.
    testTimeout: 20_000,
    // Files share one module cache per worker: antd loads once instead of once per file (about 2x
    // faster). Safe because every test builds its own store, router and DOM, and setup resets storage.
    isolate: false,
    // (its workers in the root run: the first group's, set there, vitest.config.ts)
  },
});
