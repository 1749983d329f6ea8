import { createApp, createLogger } from '@countinghouse/kit';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFrontend } from '../src/frontend.js';

// The build writes .br and .gz beside each asset (frontend/vite.config.ts); the gateway sends the
// variant the browser accepts, with the asset's own type and the year-long cache.
const dir = mkdtempSync(join(tmpdir(), 'ch-frontend-'));
const js = `export const big = ${JSON.stringify('countinghouse '.repeat(500))};\n`;
const app = createApp({ logger: createLogger('frontend-static-test', 'silent'), notFoundHandler: false });

beforeAll(async () => {
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dir, 'assets', 'index-abc.js'), js);
  writeFileSync(join(dir, 'assets', 'index-abc.js.gz'), gzipSync(js));
  writeFileSync(join(dir, 'assets', 'index-abc.js.br'), brotliCompressSync(js));
  await serveFrontend(app, dir);
  await app.ready();
});

afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (encoding?: string) =>
  app.inject({ method: 'GET', url: '/assets/index-abc.js', headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('built assets', () => {
  it('are sent brotli-compressed when the browser accepts it', async () => {
    const r = await get('gzip, deflate, br');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['content-type']).toMatch(/javascript/);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(r.rawPayload).toString()).toBe(js);
  });

  it('gzip when only gzip is accepted, plain otherwise', async () => {
    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(js);
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(js);
  });
});
