import type { TestProject } from 'vitest/node';
import { startTestProduct } from './distributed-server.js';

/**
 * The browser-distributed project's product, started once for all its files (issue 19): every service
 * its own process, crm and documents twice, on npm test's PostgreSQL, Redis, Kafka and MinIO, with a
 * database, bucket, Kafka namespace and BullMQ prefix of its own, and the default practice settings
 * (what settings.test.ts changes it puts back). Each file works on clients of its own.
 */
export default async function setup(project: TestProject) {
  const t0 = Date.now();
  const t = await startTestProduct();
  console.log(`browser-distributed: the distributed product is up at ${t.baseUrl} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  project.provide('e2eDistributed', { baseUrl: t.baseUrl, databaseUrl: t.databaseUrl, bucket: t.bucket, s3: t.infra.s3 });
  return async () => {
    await t.close();
  };
}
