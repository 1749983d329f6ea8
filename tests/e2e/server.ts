import { createTestDatabase, type TestDatabase } from '@countinghouse/kit/testing';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { sharedDistributedE2EServer, startDistributedE2EServer } from './distributed-server.js';
import pg from 'pg';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import { inject } from 'vitest';
import { startAllInOne } from '../../gateway/src/all-in-one.js';
import { builtFrontendDir } from '../frontend-build.js';
import { freePort } from '../processes.js';
import { trackRequests } from './network.js';

export const E2E_ADMIN = { username: 'e2e.admin', password: 'e2e-admin-secret-1' };

/** The longest set-up hooks: starting the distributed product (a dozen processes) takes longer than one. */
export const E2E_SLOW_HOOK_MS = process.env.E2E_DISTRIBUTED === '1' ? 400_000 : 180_000;

export interface E2EServer {
  /** e.g. http://127.0.0.1:41234 (no trailing slash) */
  baseUrl: string;
  /** A pool on this server's own database, for arranging states the UI cannot (e.g. an expired invitation). */
  pool: pg.Pool;
  admin: typeof E2E_ADMIN;
  /** 'all-in-one' (one process) or 'distributed' (every service its own process, crm and documents twice). */
  mode: 'all-in-one' | 'distributed';
  /** Every stored document file by key, and anything half-written (disk: `.tmp/…`; object store: `.uploads/…`). */
  storedFiles(): Promise<string[]>;
  /** The bytes stored under a key. */
  readStored(key: string): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * The product the browser tests run against: all-in-one (the browser project, a server per file), or
 * the distributed product from scripts/distributed.ts: in the browser-distributed project the one its
 * global setup started for every file (extraEnv is then that setup's, see distributed-global-setup.ts),
 * or with E2E_DISTRIBUTED=1 in the browser project one per file.
 */
export async function startE2EServer(extraEnv: Record<string, string> = {}): Promise<E2EServer> {
  const shared = inject('e2eDistributed');
  if (shared) return sharedDistributedE2EServer(shared);
  if (process.env.E2E_DISTRIBUTED === '1') return startDistributedE2EServer(extraEnv);
  return startAllInOneE2EServer(extraEnv);
}

/**
 * The real all-in-one server (every service in-process, the gateway, the built UI) on a fresh database
 * cloned from the test template. The UI must be built first (`npm run build -w @countinghouse/frontend`;
 * scripts/test.sh does it).
 */
export async function startAllInOneE2EServer(extraEnv: Record<string, string> = {}): Promise<E2EServer> {
  const frontendDir = await builtFrontendDir();
  const db: TestDatabase = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'ch-e2e-'));
  // A known port rather than '0': invitation links are built from PUBLIC_URL, which must be where we serve.
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let started: Awaited<ReturnType<typeof startAllInOne>>;
  try {
    started = await startAllInOne({
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATA_DIR: dataDir,
      FRONTEND_DIR: frontendDir,
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      SEED_DEMO: 'false',
      DEMO_MODE: 'true',
      LOG_LEVEL: 'warn',
      SIGN_IN_RATE_LIMIT: '1000',
      ...extraEnv,
    });
  } catch (err) {
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  const storageDir = join(extraEnv.DATA_DIR ?? dataDir, 'documents');
  return {
    baseUrl,
    pool,
    admin: E2E_ADMIN,
    mode: 'all-in-one',
    async storedFiles() {
      const out: string[] = [];
      const walk = (d: string) => {
        for (const name of readdirSync(d)) {
          const p = join(d, name);
          if (statSync(p).isDirectory()) walk(p);
          else out.push(relative(storageDir, p));
        }
      };
      if (existsSync(storageDir)) walk(storageDir);
      return out.sort();
    },
    async readStored(key) {
      return readFileSync(join(storageDir, key));
    },
    async close() {
      await pool.end();
      await started.app.close();
      await started.close();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium, headless. Use a fresh context per user (`newContext`). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh context (own cookies, own storage) for one user, en-GB like the practice's users. */
export async function newContext(browser: Browser, baseUrl: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    viewport: { width: 1280, height: 800 },
    // The browser project's users ask for reduced motion (prefers-reduced-motion: the product then turns
    // antd's motion off, antd-shell.tsx): every screen is checked as such a user gets it, without waiting for
    // drawers and lists to move (docs/perf/tests.md, session 21). browser-distributed's users do not: the
    // flows that matter most run again with antd's motion, as most users see them.
    reducedMotion: inject('e2eDistributed') ? 'no-preference' : 'reduce',
    ...options,
  });
  // (its requests followed from the start, for a11y.ts's settle: network.ts)
  trackRequests(context);
  return context;
}
