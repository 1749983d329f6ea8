import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startTestProduct } from './distributed-server.js';
import { afterStart } from './process-logs.js';

/**
 * The browser-distributed project's product, started once for all its files (issue 19): every service
 * its own process, crm and documents twice, on npm test's PostgreSQL, Redis, Kafka and MinIO, with a
 * database, bucket, Kafka namespace and BullMQ prefix of its own, and the default practice settings
 * (what settings.test.ts changes it puts back). Each file works on clients of its own.
 */
export default async function setup(project: TestProject) {
  const t0 = Date.now();
  const t = await startTestProduct({}, { log: (l) => console.log(`browser-distributed: ${l}`) });
  const readyAt = Date.now();
  console.log(`browser-distributed: the distributed product is up at ${t.baseUrl} (${((readyAt - t0) / 1000).toFixed(1)} s)`);
  project.provide('e2eDistributed', { baseUrl: t.baseUrl, databaseUrl: t.databaseUrl, bucket: t.bucket, s3: t.infra.s3 });
  return async () => {
    // What went wrong inside the product while the tests ran, when anything did: a browser test's timeout
    // says only what the page did not show (a replica out, a consumer stuck, a gateway error shows here).
    const report = afterStart(join(t.product.dataDir, 'logs'), readyAt);
    if (report) console.log(`browser-distributed: warnings and errors the processes logged after the start:\n${report}`);
    await t.close();
  };
}
