import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import type { SharedProduct, TestProduct } from './distributed-server.js';

/**
 * The browser-distributed project's product, started once for all its files (issue 19): every service
 * its own process, crm and documents twice, on npm test's PostgreSQL, Redis, Kafka and MinIO, with a
 * database, bucket, Kafka namespace and BullMQ prefix of its own, and the default practice settings
 * (what settings.test.ts changes it puts back). Each file works on clients of its own.
 *
 * Started when first asked for, not here: vitest runs every project's global set-up before the run's first
 * file, so a product started here held up the whole run for its start (about 40 s) and then idled, a dozen
 * processes polling at about a fifth of a core, through the groups before its own (about twenty minutes;
 * docs/perf/tests.md, session 21). This set-up serves a loopback address instead:
 * - `GET /product` starts the product if nobody has yet, waits for it and answers with what a file needs
 *   (SharedProduct), or 500 with the reason the start failed (every file then fails with it);
 * - `POST /warm` starts it without waiting: the distributed project's files call it (warm-product.ts), so
 *   the product starts while the group before browser-distributed runs and is ready when its files come.
 */
export default async function setup(project: TestProject) {
  let starting: Promise<TestProduct> | null = null;
  let readyAt = 0;
  const start = () =>
    (starting ??= (async () => {
      const t0 = Date.now();
      console.log('browser-distributed: starting the distributed product');
      // (imported here, not at the top: this set-up is loaded before the run's first file, and the launcher
      // with the services it starts took about 3.5 s to import: docs/perf/tests.md, session 22)
      const { startTestProduct } = await import('./distributed-server.js');
      const t = await startTestProduct({}, { log: (l) => console.log(`browser-distributed: ${l}`) });
      readyAt = Date.now();
      console.log(`browser-distributed: the distributed product is up at ${t.baseUrl} (${((readyAt - t0) / 1000).toFixed(1)} s)`);
      return t;
    })());
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/warm') {
      // (a failed start is answered to the files that ask for the product: GET /product)
      start().catch(() => {});
      res.writeHead(202).end();
      return;
    }
    if (req.method === 'GET' && req.url === '/product') {
      start().then(
        (t) => {
          const shared: SharedProduct = { baseUrl: t.baseUrl, databaseUrl: t.databaseUrl, bucket: t.bucket, s3: t.infra.s3 };
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(shared));
        },
        (err: unknown) => {
          res
            .writeHead(500, { 'content-type': 'text/plain' })
            .end(`the distributed product did not start: ${err instanceof Error ? err.stack : String(err)}`);
        },
      );
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const controlUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  project.provide('e2eDistributed', { controlUrl });
  // (the files of the group before, which warm it up: warm-product.ts)
  for (const p of project.vitest.projects) if (p.name === 'distributed') p.provide('e2eProductControl', controlUrl);
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (!starting) return;
    const t = await starting.catch(() => null);
    if (!t) return;
    // What went wrong inside the product while the tests ran, when anything did: a browser test's timeout
    // says only what the page did not show (a replica out, a consumer stuck, a gateway error shows here).
    const { afterStart } = await import('./process-logs.js');
    const report = afterStart(join(t.product.dataDir, 'logs'), readyAt);
    if (report) console.log(`browser-distributed: warnings and errors the processes logged after the start:\n${report}`);
    await t.close();
  };
}
